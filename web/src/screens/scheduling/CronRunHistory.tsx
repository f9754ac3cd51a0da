/**
 * Past and waiting runs of a cron job, newest first, filtered by status and scheduled-time range;
 * each finished run can be retried (a new attempt of the same scheduled time) and links to its
 * execution.
 */
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { Link } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import {
  Button,
  dueSoon,
  EmptyState,
  ErrorBanner,
  ListTable,
  useAsync,
  useRefreshWhile,
  useToast,
} from '../../components/index.ts';
import { formatInZone, instantOfLocalInput } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { type CronRun, cronRunStatuses, schedulingPaths } from './api.ts';

/** `refreshKey` changes when the job ran by hand, so the history shows the new run. */
/**
 * Times are the job's: rows show the scheduled time in the job's zone with the zone named (beside
 * "Next run (zone)"), and the from/until filters are read in that zone too (decision 0085).
 */
export function CronRunHistory({
  jobId,
  timeZone,
  refreshKey = 0,
}: {
  jobId: string;
  timeZone: string;
  refreshKey?: number;
}) {
  const t = useT();
  const toast = useToast();
  const { language } = useLanguage();
  const { projectId, environmentId, href } = useWorkspace();
  const [status, setStatus] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [retrying, setRetrying] = useState<string>();
  const [failure, setFailure] = useState<unknown>();
  const query = new URLSearchParams();
  if (status) query.set('status', status);
  const fromInstant = instantOfLocalInput(from, timeZone);
  const toInstant = instantOfLocalInput(to, timeZone);
  if (fromInstant) query.set('from', fromInstant);
  if (toInstant) query.set('to', toInstant);
  const queryText = query.toString();
  const runs = useAsync(
    () =>
      api.get<{ data: CronRun[] }>(
        `${schedulingPaths.cronRuns(projectId, environmentId, jobId)}${queryText ? `?${queryText}` : ''}`,
      ),
    [projectId, environmentId, jobId, queryText, refreshKey],
  );

  useRefreshWhile(
    Boolean(
      runs.data?.data.some(
        (run) => run.status === 'running' || (run.status === 'waiting' && dueSoon(run.scheduledAt)),
      ),
    ),
    runs,
  );

  const retry = async (run: CronRun) => {
    setRetrying(run.scheduledAt);
    setFailure(undefined);
    try {
      const after = await api.post<CronRun>(
        schedulingPaths.cronRetry(projectId, environmentId, jobId, run.scheduledAt),
      );
      toast(t('scheduling.runs.retried', { status: t(`scheduling.runStatus.${after.status}`) }));
      runs.reload();
    } catch (error) {
      setFailure(error);
    } finally {
      setRetrying(undefined);
    }
  };

  return (
    <section className="run-history" aria-labelledby="run-history-title">
      <h2 id="run-history-title" className="section-title">
        {t('scheduling.runs.title')}
      </h2>
      <div className="filters">
        <label className="inline-field">
          <span>{t('scheduling.runs.status')}</span>
          <select value={status} onChange={(event) => setStatus(event.target.value)}>
            <option value="">{t('scheduling.runs.anyStatus')}</option>
            {cronRunStatuses.map((s) => (
              <option key={s} value={s}>
                {t(`scheduling.runStatus.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>
            {t('scheduling.runs.from')} ({timeZone})
          </span>
          <input type="datetime-local" value={from} onChange={(event) => setFrom(event.target.value)} />
        </label>
        <label className="inline-field">
          <span>
            {t('scheduling.runs.to')} ({timeZone})
          </span>
          <input type="datetime-local" value={to} onChange={(event) => setTo(event.target.value)} />
        </label>
      </div>
      <ErrorBanner error={runs.error ?? failure} />
      <ListTable
        label={t('scheduling.runs.title')}
        columns={[
          t('scheduling.runs.scheduledAt'),
          t('scheduling.runs.status'),
          t('scheduling.runs.attempt'),
          t('scheduling.runs.reason'),
          t('scheduling.runs.execution'),
        ]}
        rowActions
        items={runs.data?.data}
        empty={<EmptyState title={t('scheduling.runs.none')} />}
        row={(run) => (
          <tr key={`${run.scheduledAt}-${run.attempt}`}>
            <td>{formatInZone(run.scheduledAt, timeZone, language)}</td>
            <td>
              <span className={`run-status run-${run.status}`}>
                {t(`scheduling.runStatus.${run.status}`)}
              </span>
            </td>
            <td>{run.attempt}</td>
            <td>
              {run.manual ? (
                <span className="run-manual">
                  {t('scheduling.runs.manualBy', { email: run.manual.by.email })}
                </span>
              ) : null}
              {run.manual && run.reason ? ' — ' : null}
              {run.reason ?? ''}
            </td>
            <td>
              {run.executionId ? (
                <Link href={href(`/executions/${encodeURIComponent(run.executionId)}`)} className="mono">
                  {run.executionId}
                </Link>
              ) : (
                '—'
              )}
            </td>
            <td>
              {run.status === 'waiting' || run.status === 'running' ? null : (
                <Button
                  className="btn-small"
                  busy={retrying === run.scheduledAt}
                  onClick={() => void retry(run)}
                  aria-label={t('scheduling.runs.retryAt', {
                    at: formatInZone(run.scheduledAt, timeZone, language),
                  })}
                >
                  {t('scheduling.runs.retry')}
                </Button>
              )}
            </td>
          </tr>
        )}
      />
    </section>
  );
}
