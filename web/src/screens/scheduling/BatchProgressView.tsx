/**
 * A batch while it runs and after: a progress bar (done = success + failure of total), the counts,
 * and each row's status. `useBatchPolling` asks again every second until the batch has finished.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from '../../app/router.tsx';
import { type DataColumn, DataTable } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import type { BatchDetail, BatchProgress, BatchRow } from './api.ts';

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

/** The row number a person knows: a CSV file's own row (its row 1 is the header), else 1, 2, 3 … */
export function batchRowNumber(batch: BatchDetail['batch'], index: number): number {
  return batch.source === 'csv' ? index + 2 : index + 1;
}

/**
 * The rows with one status column (the status, and why a row failed), then the arguments and the
 * execution. Virtualised (DataTable): a 10,000-row batch keeps only the rows in view in the page.
 */
export function BatchRowsTable({
  detail,
  executionHref,
}: {
  detail: BatchDetail;
  executionHref(id: string): string;
}) {
  const t = useT();
  const { batch, rows } = detail;
  const columns = useMemo<DataColumn<BatchRow>[]>(() => {
    const names = [...new Set(rows.slice(0, 1000).flatMap((row) => Object.keys(row.arguments)))];
    return [
      {
        key: '@row',
        label: batch.source === 'csv' ? t('scheduling.batch.fileRow') : t('scheduling.batch.row'),
        type: 'number',
        width: 80,
        value: (row) => batchRowNumber(batch, row.index),
      },
      {
        key: '@status',
        label: t('scheduling.runs.status'),
        width: 320,
        value: (row) => row.status,
        render: (row) => (
          <span className="batch-row-status" data-status={row.status}>
            <span className={`run-status run-${row.status}`}>{t(`scheduling.rowStatus.${row.status}`)}</span>
            {row.error ? (
              <span className="error-text" title={`${row.error.code}: ${row.error.message}`}>
                {` ${row.error.code}: ${row.error.message}`}
              </span>
            ) : null}
          </span>
        ),
      },
      ...names.map(
        (name): DataColumn<BatchRow> => ({
          key: `argument:${name}`,
          label: (
            <span title={t('scheduling.batch.argumentColumn', { name })}>
              <span className="mono">{name}</span>{' '}
              <span className="col-type">{t('scheduling.batch.argument')}</span>
            </span>
          ),
          value: (row) => (row.arguments[name] === undefined ? '' : JSON.stringify(row.arguments[name])),
        }),
      ),
      {
        key: '@execution',
        label: t('scheduling.runs.execution'),
        width: 220,
        value: (row) => row.executionId ?? '',
        render: (row) =>
          row.executionId && row.status !== 'waiting' ? (
            <Link href={executionHref(row.executionId)} className="mono">
              {row.executionId}
            </Link>
          ) : (
            '—'
          ),
      },
    ];
  }, [batch, rows, t, executionHref]);
  return (
    <DataTable
      columns={columns}
      rows={rows}
      label={t('scheduling.batch.rows')}
      rowKey={(row) => row.index}
      maxHeight={520}
      // Polling brings new rows every second: the reader's place stays.
      resetScrollOn={batch.id}
    />
  );
}
