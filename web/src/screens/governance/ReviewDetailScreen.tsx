/**
 * One review request: what is asked (action, version, arguments, comment), its status, and for
 * another member with the right, approve or reject with a comment; the requester may cancel.
 * Approval runs the action at once: its result is shown here. A data-changing SQL action's request
 * carries a preview (decision 0185) taken when it was made; approval takes it again and, when the
 * numbers differ, stops with both shown until the approver approves anyway.
 */
import { useState } from 'react';
import { ApiError, api } from '../../api/client.ts';
import type { Execution } from '../../api/types.ts';
import { Link } from '../../app/router.tsx';
import { useSession } from '../../app/session.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import { Button, ErrorBanner, Field, useAsync, useToast } from '../../components/index.ts';
import { formatTime } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { PreviewView } from '../actions/PreviewView.tsx';
import { ResultView } from '../actions/ResultView.tsx';
import { RunPrincipal, RunVia } from '../agents/RunOrigin.tsx';
import { governancePaths, type ReviewPreview, type ReviewRequest } from './api.ts';

export function ReviewDetailScreen({ params }: { params: Record<string, string> }) {
  const t = useT();
  const toast = useToast();
  const { language } = useLanguage();
  const { user } = useSession();
  const workspace = useWorkspace();
  const reviewId = params.reviewId!;
  const review = useAsync(
    () => api.get<ReviewRequest>(governancePaths.review(workspace.projectId, reviewId)),
    [workspace.projectId, reviewId],
  );
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState<string>();
  const [failure, setFailure] = useState<unknown>();
  const [execution, setExecution] = useState<Execution>();
  /** The approval stopped: the preview taken now differs from the request's. */
  const [changed, setChanged] = useState<{ detail: string; preview: ReviewPreview }>();

  const decide = async (verb: 'approve' | 'reject' | 'cancel', acceptPreviewChange = false) => {
    setBusy(verb);
    setFailure(undefined);
    try {
      const answer = await api.post<{ reviewRequest?: ReviewRequest; execution?: Execution | null }>(
        governancePaths.reviewDecision(workspace.projectId, reviewId, verb),
        {
          ...(verb !== 'cancel' && comment ? { comment } : {}),
          ...(acceptPreviewChange ? { acceptPreviewChange: true } : {}),
        },
      );
      setChanged(undefined);
      if (answer?.execution) setExecution(answer.execution);
      toast(t(`governance.reviews.done.${verb}`));
      review.reload();
    } catch (error) {
      if (error instanceof ApiError && error.body.reason === 'preview_changed') {
        setChanged({ detail: error.detail, preview: error.body.previewAtApproval as ReviewPreview });
      } else setFailure(error);
    } finally {
      setBusy(undefined);
    }
  };

  const back = (
    <Link href={workspace.href('/reviews')} className="back-link">
      ← {t('governance.reviews.title')}
    </Link>
  );
  if (review.error) {
    return (
      <section className="screen">
        {back}
        <ErrorBanner error={review.error} />
      </section>
    );
  }
  const data = review.data;
  if (!data) return <p className="muted">{t('common.loading')}</p>;
  const mine = data.requestedBy.id === user.id;
  const args = Object.entries(data.arguments ?? {});
  return (
    <section className="screen" aria-labelledby="review-title">
      {back}
      <div className="screen-header">
        <h1 id="review-title">{t('governance.reviews.detailTitle', { action: data.actionId })}</h1>
        <span className={`run-status run-${data.status}`} data-testid="review-status">
          {t(`governance.reviewStatus.${data.status}`)}
        </span>
      </div>
      <ErrorBanner error={failure} onDismiss={() => setFailure(undefined)} />
      <dl className="detail-list">
        <dt>{t('governance.reviews.action')}</dt>
        <dd>
          <Link href={workspace.href(`/actions/${encodeURIComponent(data.actionId)}`)} className="mono">
            {data.actionId}
          </Link>{' '}
          v{data.actionVersion}
        </dd>
        <dt>{t('governance.reviews.environment')}</dt>
        <dd>{data.environmentId}</dd>
        <dt>{t('governance.reviews.requestedBy')}</dt>
        <dd>
          <RunPrincipal principal={data.requestedBy} />
        </dd>
        {data.agent ? (
          <>
            <dt>{t('agents.requestedVia')}</dt>
            <dd>
              <RunVia via="mcp" agent={data.agent} />
            </dd>
          </>
        ) : null}
        <dt>{t('governance.reviews.requestedAt')}</dt>
        <dd>{formatTime(data.requestedAt, language)}</dd>
        <dt>{t('governance.reviews.expiresAt')}</dt>
        <dd>{formatTime(data.expiresAt, language)}</dd>
        <dt>{t('governance.reviews.comment')}</dt>
        <dd>{data.comment || <span className="muted">—</span>}</dd>
        <dt>{t('scheduling.field.arguments')}</dt>
        <dd>
          {args.length === 0 ? (
            <span className="muted">—</span>
          ) : (
            <ul className="plain-list">
              {args.map(([key, value]) => (
                <li key={key}>
                  <span className="mono">{key}</span> = <span className="mono">{JSON.stringify(value)}</span>
                </li>
              ))}
            </ul>
          )}
        </dd>
        {data.decidedBy ? (
          <>
            <dt>{t('governance.reviews.decidedBy')}</dt>
            <dd>
              {data.decidedBy.email} · {formatTime(data.decidedAt, language)}
              {data.decisionComment ? <div>“{data.decisionComment}”</div> : null}
            </dd>
          </>
        ) : null}
        {data.executionId ? (
          <>
            <dt>{t('scheduling.runs.execution')}</dt>
            <dd>
              <Link
                href={workspace.href(`/executions/${encodeURIComponent(data.executionId)}`)}
                className="mono"
              >
                {data.executionId}
              </Link>
            </dd>
          </>
        ) : null}
        {data.executionError ? (
          <>
            <dt>{t('scheduling.batch.error')}</dt>
            <dd className="error-text">
              {data.executionError.code}: {data.executionError.message}
            </dd>
          </>
        ) : null}
      </dl>
      <ReviewPreviewSection
        preview={data.preview}
        heading={t('governance.reviews.previewAtRequest')}
        language={language}
      />
      <ReviewPreviewSection
        preview={data.previewAtApproval}
        heading={t('governance.reviews.previewAtApproval')}
        language={language}
      />
      {changed && data.status === 'pending' ? (
        <>
          <div className="notice notice-warning" role="alert">
            <strong>{t('governance.reviews.previewChanged')}</strong>
            <p>{changed.detail}</p>
          </div>
          <ReviewPreviewSection
            preview={changed.preview}
            heading={t('governance.reviews.previewAtApproval')}
            language={language}
          />
        </>
      ) : null}
      {data.status === 'pending' ? (
        <div className="editor-form">
          {mine ? (
            <>
              <p className="muted">{t('governance.reviews.ownRequest')}</p>
              <div className="form-actions">
                <Button variant="danger" busy={busy === 'cancel'} onClick={() => void decide('cancel')}>
                  {t('governance.reviews.cancel')}
                </Button>
              </div>
            </>
          ) : (
            <>
              <Field label={t('governance.reviews.decisionComment')}>
                <textarea
                  value={comment}
                  onChange={(event) => setComment(event.target.value)}
                  maxLength={2000}
                  rows={3}
                />
              </Field>
              <div className="form-actions">
                <Button
                  variant="primary"
                  busy={busy === 'approve'}
                  onClick={() => void decide('approve', changed !== undefined)}
                >
                  {changed ? t('governance.reviews.approveAnyway') : t('governance.reviews.approve')}
                </Button>
                <Button variant="danger" busy={busy === 'reject'} onClick={() => void decide('reject')}>
                  {t('governance.reviews.reject')}
                </Button>
              </div>
            </>
          )}
        </div>
      ) : null}
      {execution ? <ResultView execution={execution} actionId={data.actionId} /> : null}
    </section>
  );
}

/** A preview kept on the request: its statements, or why none could be taken. */
function ReviewPreviewSection({
  preview,
  heading,
  language,
}: {
  preview: ReviewPreview | undefined;
  heading: string;
  language: string;
}) {
  const t = useT();
  if (!preview) return null;
  const taken = t('preview.takenAt', { time: formatTime(preview.takenAt, language) });
  if (!preview.statements) {
    return (
      <section className="results preview-results" aria-label={heading}>
        <h2>{heading}</h2>
        <p className="notice notice-warning">
          {t('preview.unavailable', { message: preview.error?.message ?? '' })}
        </p>
        <p className="muted small">{taken}</p>
      </section>
    );
  }
  return (
    <>
      <PreviewView statements={preview.statements} heading={heading} />
      <p className="muted small">
        {taken}
        {preview.rowsLeftOut ? ` · ${t('preview.rowsLeftOut')}` : ''}
      </p>
    </>
  );
}
