/**
 * The execution screen generated from an action's definition: its parameters as a form, Run,
 * and the results. Validation messages come from the API's 422 pointers, next to each input.
 * A review-gated action answers "review requested" with a link to the request instead, and sends
 * the requester's comment with it. "Run as a job" starts the same run in the background and opens
 * its status screen (docs/scheduling.md). "Dry run" (kinds that can estimate, e.g. BigQuery) shows
 * what each statement would process without running it. "Preview" (data-changing SQL actions) runs
 * the statements in a transaction that is always rolled back and shows the rows each would change.
 */
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { effectOf } from '../../../../shared/domain/action-effect.ts';
import { ApiError, api } from '../../api/client.ts';
import { apiPaths } from '../../api/paths.ts';
import type { Execution, ReviewRequested } from '../../api/types.ts';
import { Link, navigate } from '../../app/router.tsx';
import { useSession } from '../../app/session.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import { Button, EmptyState, ErrorBanner, useAsync } from '../../components/index.ts';
import { type Translate, useT } from '../../i18n/index.tsx';
import { NotPublishedNotice } from '../governance/NotPublishedNotice.tsx';
import { ReviewCommentField } from '../governance/RequestReviewForm.tsx';
import { ActionLinks } from './ActionLinks.tsx';
import { ConfirmRunDialog, needsConfirmation } from './ConfirmRunDialog.tsx';
import { loadAction } from './load-action.ts';
import { ParameterInput } from './ParameterInput.tsx';
import { PreviewView, previewStatementsOf, previewSummary } from './PreviewView.tsx';
import {
  choicesOf,
  type Drafts,
  draftProblem,
  draftsFromQuery,
  errorsByParameter,
  initialDrafts,
  toArguments,
} from './parameter-values.ts';
import { ResultView, rowsText } from './ResultView.tsx';

type Outcome =
  | { kind: 'execution'; execution: Execution }
  | { kind: 'preview'; execution: Execution }
  | { kind: 'review'; review: ReviewRequested }
  | { kind: 'failed'; error: unknown; execution?: Execution };

export function ActionScreen({ params }: { params: Record<string, string> }) {
  const t = useT();
  const { user } = useSession();
  const workspace = useWorkspace();
  const actionId = params.actionId!;
  const loaded = useAsync(
    () => loadAction(workspace.projectId, workspace.environmentId, actionId),
    [workspace.projectId, workspace.environmentId, actionId],
  );
  const action = loaded.data?.action;
  const [drafts, setDrafts] = useState<Drafts>({});
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [comment, setComment] = useState('');
  /** Which button started the request in flight: both are blocked meanwhile. */
  const [busy, setBusy] = useState<'run' | 'job' | 'dryRun' | 'preview'>();
  const running = busy !== undefined;
  const [outcome, setOutcome] = useState<Outcome>();
  /** A data-changing run waiting for the person's confirmation (Run or Run as a job). */
  const [toConfirm, setToConfirm] = useState<{ mode: 'run' | 'job'; args: Record<string, unknown> }>();
  const outcomeRef = useRef<HTMLDivElement>(null);
  // The Run button is disabled while it runs, so focus would fall to <body>: it goes to the outcome.
  // An input the API refused keeps focus instead (focusFirstError).
  useEffect(() => {
    if (outcome && !document.querySelector('.action-form [aria-invalid="true"]')) outcomeRef.current?.focus();
  }, [outcome]);

  // A newly loaded definition starts a fresh form. Adjusted during render, not in an effect: otherwise
  // the inputs show for one frame with no drafts, and what is typed in that frame is wiped.
  const [formOf, setFormOf] = useState<typeof action>();
  if (action && formOf !== action) {
    setFormOf(action);
    // A link may carry arguments (`?order_id=42`, e.g. from a view's navigate event).
    setDrafts(draftsFromQuery(action.parameters, new URLSearchParams(window.location.search)));
    setFieldErrors({});
    setComment('');
    setOutcome(undefined);
  }

  const visibleParameters = useMemo(() => action?.parameters ?? [], [action]);

  const reviewGated = Boolean(action?.review?.required);

  /** The arguments to send, or undefined when an input is invalid (its message is shown). */
  const collectArguments = (): Record<string, unknown> | undefined => {
    if (!action) return undefined;
    const { arguments: args, errors } = toArguments(action.parameters, drafts);
    const clientErrors = Object.fromEntries(
      Object.entries(errors).map(([name, e]) => [name, t(e.key, e.vars)]),
    );
    setFieldErrors(clientErrors);
    if (Object.keys(clientErrors).length > 0) {
      focusFirstError();
      return undefined;
    }
    return args;
  };

  const showFailure = (error: unknown) => {
    if (error instanceof ApiError && error.code === 'argument_invalid') {
      setFieldErrors(errorsByParameter(error.errors));
      setOutcome({ kind: 'failed', error });
      focusFirstError();
    } else {
      const execution =
        error instanceof ApiError ? (error.body.execution as Execution | undefined) : undefined;
      setOutcome({ kind: 'failed', error, ...(execution ? { execution } : {}) });
    }
  };

  // The same judgement the server makes (the author's word, else what the statements or method do).
  const effect = action ? effectOf(action as never) : undefined;
  const changesData = effect === 'changes';

  const run = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!action || running) return;
    const args = collectArguments();
    if (!args) return;
    if (changesData) setToConfirm({ mode: 'run', args });
    else await send('run', args, false);
  };

  const send = async (mode: 'run' | 'job', args: Record<string, unknown>, confirmed: boolean) => {
    if (!action) return;
    if (mode === 'job') return startJob(args, confirmed);
    setBusy('run');
    const path = apiPaths.executions(workspace.projectId, workspace.environmentId, action.id);
    const trimmedComment = comment.trim();
    try {
      const response = await api.postWithResponse<Execution | ReviewRequested>(path, {
        arguments: args,
        via: 'console',
        ...(confirmed ? { confirm: true } : {}),
        ...(reviewGated && trimmedComment ? { comment: trimmedComment } : {}),
      });
      if (response.status === 202 && 'reviewRequest' in response.body) {
        setOutcome({ kind: 'review', review: response.body });
        setComment('');
      } else {
        setOutcome({ kind: 'execution', execution: response.body as Execution });
      }
    } catch (error) {
      // A record saved before effects existed: the server knows it changes data and asks first.
      if (needsConfirmation(error) && !confirmed) setToConfirm({ mode: 'run', args });
      else showFailure(error);
    } finally {
      setBusy(undefined);
    }
  };

  /** Estimates only (kinds that offer it): the answer is an execution whose messages hold the estimate. */
  const dryRun = async () => {
    if (!action || running) return;
    const args = collectArguments();
    if (!args) return;
    setBusy('dryRun');
    const path = apiPaths.executions(workspace.projectId, workspace.environmentId, action.id);
    try {
      setOutcome({
        kind: 'execution',
        execution: await api.post<Execution>(path, { arguments: args, dryRun: true }),
      });
    } catch (error) {
      showFailure(error);
    } finally {
      setBusy(undefined);
    }
  };

  /** Runs and rolls back (decision 0185): no confirmation or review, nothing is committed. */
  const preview = async () => {
    if (!action || running) return;
    const args = collectArguments();
    if (!args) return;
    setBusy('preview');
    const path = apiPaths.executions(workspace.projectId, workspace.environmentId, action.id);
    try {
      setOutcome({
        kind: 'preview',
        execution: await api.post<Execution>(path, { arguments: args, preview: true, via: 'console' }),
      });
    } catch (error) {
      showFailure(error);
    } finally {
      setBusy(undefined);
    }
  };

  const runAsJob = async () => {
    if (!action || running) return;
    const args = collectArguments();
    if (!args) return;
    if (changesData) setToConfirm({ mode: 'job', args });
    else await startJob(args, false);
  };

  const startJob = async (args: Record<string, unknown>, confirmed: boolean) => {
    if (!action) return;
    setBusy('job');
    const path = apiPaths.executions(workspace.projectId, workspace.environmentId, action.id);
    try {
      // 202 at once with the queued execution; its own screen polls it until it finishes.
      const started = await api.post<{ execution: Execution }>(path, {
        arguments: args,
        async: true,
        via: 'console',
        ...(confirmed ? { confirm: true } : {}),
      });
      navigate(workspace.href(`/executions/${encodeURIComponent(started.execution.id)}`));
    } catch (error) {
      if (needsConfirmation(error) && !confirmed) setToConfirm({ mode: 'job', args });
      else showFailure(error);
    } finally {
      setBusy(undefined);
    }
  };

  if (loaded.error) {
    return (
      <section className="screen">
        <BackLink />
        <ErrorBanner error={loaded.error} />
      </section>
    );
  }
  if (!action || !loaded.data) {
    return (
      <section className="screen" aria-busy="true">
        <BackLink />
        <p className="muted">{t('common.loading')}</p>
      </section>
    );
  }

  const formLevelError = fieldErrors[''];
  // A protected environment runs only what was published: nothing published, nothing to run here.
  const unpublished = Boolean(workspace.environment?.protected) && !loaded.data.publishedVersion;
  const offersPreview = loaded.data.preview && changesData;
  return (
    <section className="screen action-screen" aria-labelledby="action-title">
      <BackLink />
      <div className="screen-header">
        <div>
          <h1 id="action-title">{action.name}</h1>
          <div className="action-meta">
            <span className={`kind-badge kind-${action.kind}`}>{action.kind.toUpperCase()}</span>
            <span className="mono muted">{action.id}</span>
            <span className="muted">
              {loaded.data.publishedVersion
                ? t('action.publishedVersion', { version: loaded.data.publishedVersion })
                : t('action.latestVersion', { version: action.version ?? loaded.data.latestVersion ?? '?' })}
              {workspace.environment?.protected ? ` · ${t('protected.badge')}` : ''}
            </span>
            {action.review?.required ? (
              <span className="kind-badge kind-review">{t('actions.reviewRequired')}</span>
            ) : null}
            {effect ? <span className={`kind-badge effect-${effect}`}>{t(`effect.${effect}`)}</span> : null}
          </div>
          {action.description ? <p className="action-description">{action.description}</p> : null}
        </div>
        <ActionLinks actionId={action.id} />
      </div>
      {unpublished ? (
        <NotPublishedNotice
          kind="action"
          id={action.id}
          latestVersion={loaded.data.latestVersion ?? action.version ?? 1}
          onPublished={loaded.reload}
          onError={(error) => setOutcome({ kind: 'failed', error })}
        />
      ) : null}

      <form
        className="action-form"
        onSubmit={run}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey)) return;
          // Ctrl+Shift+Enter previews where Preview is offered; Ctrl+Enter runs.
          if (event.shiftKey && offersPreview) {
            event.preventDefault();
            void preview();
          } else void run(event);
        }}
        noValidate
        aria-label={t('action.parameters')}
      >
        {visibleParameters.length === 0 ? <p className="muted">{t('action.noParameters')}</p> : null}
        <div className="param-grid">
          {visibleParameters.map((parameter) => (
            <ParameterInput
              key={parameter.name}
              parameter={parameter}
              draft={drafts[parameter.name] ?? initialDrafts([parameter])[parameter.name]!}
              onChange={(draft) => {
                setDrafts((current) => ({ ...current, [parameter.name]: draft }));
                // Said while typing, gone once fixed (a server message goes with the first change).
                const problem = draftProblem(parameter, draft);
                setFieldErrors((current) => {
                  const { [parameter.name]: _, ...rest } = current;
                  return problem ? { ...rest, [parameter.name]: t(problem.key, problem.vars) } : rest;
                });
              }}
              error={fieldErrors[parameter.name]}
              choices={choicesOf(parameter, loaded.data!.masterData)}
              user={user}
            />
          ))}
        </div>
        {reviewGated ? <ReviewCommentField value={comment} onChange={setComment} /> : null}
        {formLevelError ? (
          <div className="field-error" role="alert">
            {formLevelError}
          </div>
        ) : null}
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={busy === 'run'} disabled={running || unpublished}>
            {busy === 'run' ? t('action.running') : reviewGated ? t('action.requestReview') : t('action.run')}
          </Button>
          {reviewGated ? null : (
            <Button
              busy={busy === 'job'}
              disabled={running || unpublished}
              onClick={() => void runAsJob()}
              aria-describedby="run-as-job-hint"
            >
              {busy === 'job' ? t('action.startingJob') : t('action.runAsJob')}
            </Button>
          )}
          {loaded.data.dryRun ? (
            <Button
              busy={busy === 'dryRun'}
              disabled={running}
              onClick={() => void dryRun()}
              aria-describedby="dry-run-hint"
            >
              {busy === 'dryRun' ? t('action.dryRunning') : t('action.dryRun')}
            </Button>
          ) : null}
          {offersPreview ? (
            <Button
              busy={busy === 'preview'}
              disabled={running || unpublished}
              onClick={() => void preview()}
              aria-describedby="preview-hint"
              aria-keyshortcuts="Control+Shift+Enter"
            >
              {busy === 'preview' ? t('action.previewing') : t('action.preview')}
            </Button>
          ) : null}
          <span className="muted small">{t('action.runShortcut')}</span>
        </div>
        {offersPreview ? (
          <p id="preview-hint" className="muted small">
            {t('action.previewHint')}
          </p>
        ) : null}
        {loaded.data.dryRun ? (
          <p id="dry-run-hint" className="muted small">
            {t('action.dryRunHint')}
          </p>
        ) : null}
        {reviewGated ? null : (
          <p id="run-as-job-hint" className="muted small run-as-job-hint">
            {t('action.runAsJobHint')}
          </p>
        )}
      </form>

      {/* A short status is announced (not the whole table), and focus moves here after a run. */}
      <div
        ref={outcomeRef}
        className="run-outcome"
        tabIndex={-1}
        {...(outcome ? { role: 'region', 'aria-labelledby': 'run-status' } : {})}
      >
        <p id="run-status" className="visually-hidden" role="status">
          {outcome ? outcomeSummary(t, outcome) : ''}
        </p>
        {outcome?.kind === 'review' ? <ReviewNotice review={outcome.review} /> : null}
        {outcome?.kind === 'failed' ? (
          <>
            <ErrorBanner error={outcome.error} />
            {outcome.execution?.results?.length ? (
              <ResultView execution={outcome.execution} actionId={action.id} />
            ) : null}
          </>
        ) : null}
        {outcome?.kind === 'execution' ? (
          <ResultView execution={outcome.execution} actionId={action.id} />
        ) : null}
        {outcome?.kind === 'preview' ? (
          <PreviewView statements={previewStatementsOf(outcome.execution)} />
        ) : null}
        <ConfirmRunDialog
          subject={
            toConfirm
              ? {
                  actionName: action.name,
                  environmentName: workspace.environment?.name ?? workspace.environmentId,
                  arguments: toConfirm.args,
                }
              : undefined
          }
          onCancel={() => setToConfirm(undefined)}
          onConfirm={() => {
            const pending = toConfirm;
            setToConfirm(undefined);
            if (pending) void send(pending.mode, pending.args, true);
          }}
        />
        {!outcome && !running ? (
          <EmptyState title={t('action.notRunYet')}>
            {t(reviewGated ? 'action.notRunYetReviewDetail' : 'action.notRunYetDetail')}
          </EmptyState>
        ) : null}
      </div>
    </section>
  );
}

/** "Succeeded, 5 rows": what a screen reader says after a run, instead of the whole result. */
function outcomeSummary(t: Translate, outcome: Outcome): string {
  if (outcome.kind === 'review') return t('action.reviewRequested');
  if (outcome.kind === 'preview') return previewSummary(t, previewStatementsOf(outcome.execution));
  const execution = outcome.execution;
  const status = t(`status.${execution?.status ?? 'failed'}`);
  if (outcome.kind === 'failed' && !execution) {
    const error = outcome.error;
    return `${status}: ${error instanceof ApiError ? error.detail || error.title : t('error.network')}`;
  }
  const results = execution?.results ?? [];
  if (results.length === 1 && results[0]!.rowCount !== undefined)
    return `${status}, ${rowsText(t, results[0]!.rowCount)}`;
  return results.length > 1 ? `${status}, ${t('result.statements', { count: results.length })}` : status;
}

function focusFirstError() {
  requestAnimationFrame(() =>
    document.querySelector<HTMLElement>('.action-form [aria-invalid="true"]')?.focus(),
  );
}

function BackLink() {
  const t = useT();
  const workspace = useWorkspace();
  return (
    <Link href={workspace.href('/actions')} className="back-link">
      ← {t('action.back')}
    </Link>
  );
}

function ReviewNotice({ review }: { review: ReviewRequested }) {
  const t = useT();
  const workspace = useWorkspace();
  const id = review.reviewRequest.id;
  return (
    <div className="notice notice-info" role="status">
      <strong>{t('action.reviewRequested')}</strong>
      <p>{t('action.reviewRequestedDetail')}</p>
      <p>
        <Link href={workspace.href(`/reviews/${encodeURIComponent(id)}`)}>
          {t('action.openReview', { id })}
        </Link>
        <span className="muted small"> · {review.links.self}</span>
      </p>
    </div>
  );
}
