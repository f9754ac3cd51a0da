/**
 * A batch while it runs and after: a progress bar (done = success + failure of total), the counts,
 * and each row's status. `useBatchPolling` asks again every second until the batch has finished.
 */
import { useEffect, useRef, useState } from 'react';
import { Link } from '../../app/router.tsx';
import { useT } from '../../i18n/index.tsx';
import type { BatchDetail, BatchProgress } from './api.ts';

export function isBatchActive(detail: BatchDetail | undefined): boolean {
  return !detail || detail.batch.status === 'waiting' || detail.batch.status === 'running';
}

/** Loads at once, then every `intervalMs` while the batch is waiting or running; `restart()` after a retry. */
export function useBatchPolling(load: () => Promise<BatchDetail>, intervalMs = 1000) {
  const [detail, setDetail] = useState<BatchDetail>();
  const [error, setError] = useState<unknown>();
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  // biome-ignore lint/correctness/useExhaustiveDependencies: generation restarts the polling loop.
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const next = await loadRef.current();
        if (stopped) return;
        setDetail(next);
        setError(undefined);
        if (isBatchActive(next)) timer = setTimeout(tick, intervalMs);
      } catch (failure) {
        if (stopped) return;
        setError(failure);
        // A dropped request should not end the watch: try again a little later.
        timer = setTimeout(tick, intervalMs * 3);
      }
    };
    void tick();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [intervalMs, generation]);
  return { detail, error, restart: () => setGeneration((n) => n + 1) };
}

export function BatchProgressBar({ progress }: { progress: BatchProgress }) {
  const t = useT();
  const done = progress.success + progress.failure;
  const percent = progress.total ? Math.round((done / progress.total) * 100) : 0;
  const successWidth = progress.total ? (progress.success / progress.total) * 100 : 0;
  const failureWidth = progress.total ? (progress.failure / progress.total) * 100 : 0;
  return (
    <div className="batch-progress">
      <div
        className="progress-track"
        role="progressbar"
        aria-label={t('scheduling.batch.progress')}
        aria-valuemin={0}
        aria-valuemax={progress.total}
        aria-valuenow={done}
        aria-valuetext={t('scheduling.batch.progressText', { done, total: progress.total, percent })}
      >
        <div className="progress-success" style={{ width: `${successWidth}%` }} />
        <div className="progress-failure" style={{ width: `${failureWidth}%` }} />
      </div>
      <p className="progress-counts" data-testid="batch-counts">
        {t('scheduling.batch.counts', {
          percent,
          success: progress.success,
          failure: progress.failure,
          running: progress.running,
          waiting: progress.waiting,
          total: progress.total,
        })}
      </p>
    </div>
  );
}

export function BatchRowsTable({
  detail,
  executionHref,
}: {
  detail: BatchDetail;
  executionHref(id: string): string;
}) {
  const t = useT();
  const columns = [...new Set(detail.rows.flatMap((row) => Object.keys(row.arguments)))];
  return (
    <div className="table-scroll">
      <table className="plain-table batch-rows">
        <caption className="visually-hidden">{t('scheduling.batch.rows')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('scheduling.batch.row')}</th>
            <th scope="col">{t('scheduling.runs.status')}</th>
            {columns.map((column) => (
              <th key={column} scope="col" className="mono">
                {column}
              </th>
            ))}
            <th scope="col">{t('scheduling.runs.execution')}</th>
            <th scope="col">{t('scheduling.batch.error')}</th>
          </tr>
        </thead>
        <tbody>
          {detail.rows.map((row) => (
            <tr key={row.index} data-status={row.status}>
              <td>{row.index + 1}</td>
              <td>
                <span className={`run-status run-${row.status}`}>
                  {t(`scheduling.rowStatus.${row.status}`)}
                </span>
              </td>
              {columns.map((column) => (
                <td key={column} className="mono">
                  {row.arguments[column] === undefined ? '' : JSON.stringify(row.arguments[column])}
                </td>
              ))}
              <td>
                {row.executionId && row.status !== 'waiting' ? (
                  <Link href={executionHref(row.executionId)} className="mono">
                    {row.executionId}
                  </Link>
                ) : (
                  '—'
                )}
              </td>
              <td className="error-text">{row.error ? `${row.error.code}: ${row.error.message}` : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
