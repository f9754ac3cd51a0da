/** A batch's progress, polled every second while it runs; retry failed rows; results as CSV. */
import { useCallback, useState } from 'react';
import { api, saveFile } from '../../api/client.ts';
import { Link } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import { Button, ErrorBanner, useToast } from '../../components/index.ts';
import { formatTime } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { type BatchDetail, schedulingPaths } from './api.ts';
import { BatchProgressBar, BatchRowsTable, isBatchActive, useBatchPolling } from './BatchProgressView.tsx';

export function BatchDetailScreen({ params }: { params: Record<string, string> }) {
  const t = useT();
  const toast = useToast();
  const { language } = useLanguage();
  const workspace = useWorkspace();
  const { projectId, environmentId } = workspace;
  const batchId = params.batchId!;
  const load = useCallback(
    () => api.get<BatchDetail>(schedulingPaths.batch(projectId, environmentId, batchId)),
    [projectId, environmentId, batchId],
  );
  const { detail, error, restart } = useBatchPolling(load);
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const retry = async () => {
    setBusy(true);
    setFailure(undefined);
    try {
      await api.post(schedulingPaths.batchRetry(projectId, environmentId, batchId));
      toast(t('scheduling.batch.retrying'));
      restart();
    } catch (e) {
      setFailure(e);
    } finally {
      setBusy(false);
    }
  };

  const download = async () => {
    try {
      saveFile(
        await api.download(
          schedulingPaths.batchResults(projectId, environmentId, batchId),
          'text/csv',
          undefined,
          `${batchId}-results.csv`,
        ),
      );
    } catch (e) {
      setFailure(e);
    }
  };

  const active = isBatchActive(detail);
  return (
    <section className="screen" aria-labelledby="batch-detail-title">
      <Link href={workspace.href('/batches')} className="back-link">
        ← {t('scheduling.batch.back')}
      </Link>
      <div className="screen-header">
        <h1 id="batch-detail-title">{t('scheduling.batch.detailTitle', { id: batchId })}</h1>
        {detail ? (
          <span className={`run-status run-${detail.batch.status}`} data-testid="batch-status">
            {t(`scheduling.batchStatus.${detail.batch.status}`)}
          </span>
        ) : null}
        <div className="header-spacer" />
        <Button onClick={() => void retry()} busy={busy} disabled={active || !detail?.progress.failure}>
          {t('scheduling.batch.retryFailed')}
        </Button>
        <Button onClick={() => void download()} disabled={active}>
          {t('scheduling.batch.downloadResults')}
        </Button>
      </div>
      <ErrorBanner error={error ?? failure} />
      {detail ? (
        <>
          <p className="muted small">
            {t('scheduling.batch.meta', {
              action: detail.batch.actionId,
              by: detail.batch.createdBy.email,
              at: formatTime(detail.batch.createdAt, language),
              attempt: detail.batch.attempt,
            })}
          </p>
          <BatchProgressBar progress={detail.progress} />
          <BatchRowsTable
            detail={detail}
            executionHref={(id) => workspace.href(`/executions/${encodeURIComponent(id)}`)}
          />
        </>
      ) : (
        <p className="muted">{t('common.loading')}</p>
      )}
    </section>
  );
}
