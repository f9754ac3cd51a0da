/**
 * One cron job: its next and second-next runs, arguments and executor; run now; stop / resume; delete
 * after a confirmation; and the run history (CronRunHistory).
 */
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { Link, navigate } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import { Button, Dialog, ErrorBanner, useAsync, useToast } from '../../components/index.ts';
import { formatInZone } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { type CronJob, type CronRun, schedulingPaths } from './api.ts';
import { CronRunHistory } from './CronRunHistory.tsx';
import { describeSchedule } from './describe-schedule.ts';

export function CronJobDetailScreen({ params }: { params: Record<string, string> }) {
  const t = useT();
  const toast = useToast();
  const { language } = useLanguage();
  const workspace = useWorkspace();
  const { projectId, environmentId } = workspace;
  const jobId = params.jobId!;
  const job = useAsync(
    () => api.get<CronJob>(schedulingPaths.cronJob(projectId, environmentId, jobId)),
    [projectId, environmentId, jobId],
  );
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [ranNow, setRanNow] = useState(0);

  const runNow = async () => {
    setBusy(true);
    setFailure(undefined);
    try {
      const run = await api.post<CronRun>(
        `${schedulingPaths.cronJob(projectId, environmentId, jobId)}/run-now`,
      );
      toast(t('scheduling.cron.ranNow', { status: t(`scheduling.runStatus.${run.status}`) }));
      setRanNow((count) => count + 1);
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  const toggle = async (current: CronJob) => {
    setBusy(true);
    setFailure(undefined);
    try {
      const verb = current.state === 'running' ? 'stop' : 'resume';
      await api.post(`${schedulingPaths.cronJob(projectId, environmentId, jobId)}/${verb}`);
      toast(t(verb === 'stop' ? 'scheduling.cron.stopped' : 'scheduling.cron.resumed'));
      job.reload();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setBusy(true);
    try {
      await api.del(schedulingPaths.cronJob(projectId, environmentId, jobId));
      toast(t('scheduling.cron.deleted'));
      navigate(workspace.href('/cron-jobs'));
    } catch (error) {
      setFailure(error);
      setConfirmDelete(false);
    } finally {
      setBusy(false);
    }
  };

  const back = (
    <Link href={workspace.href('/cron-jobs')} className="back-link">
      ← {t('scheduling.cron.back')}
    </Link>
  );
  if (job.error) {
    return (
      <section className="screen">
        {back}
        <ErrorBanner error={job.error} />
      </section>
    );
  }
  const data = job.data;
  if (!data) return <p className="muted">{t('common.loading')}</p>;
  const argumentEntries = Object.entries(data.arguments ?? {});
  return (
    <section className="screen" aria-labelledby="cron-detail-title">
      {back}
      <div className="screen-header">
        <h1 id="cron-detail-title">{data.name}</h1>
        <span className={`state-badge state-${data.state}`}>{t(`scheduling.state.${data.state}`)}</span>
        <div className="header-spacer" />
        <Link
          href={workspace.href(`/cron-jobs/${encodeURIComponent(jobId)}/edit`)}
          className="btn btn-secondary"
        >
          {t('scheduling.cron.edit')}
        </Link>
        <Button variant="primary" busy={busy} onClick={() => void runNow()}>
          {t('scheduling.cron.runNow')}
        </Button>
        <Button busy={busy} onClick={() => void toggle(data)}>
          {data.state === 'running' ? t('scheduling.cron.stop') : t('scheduling.cron.resume')}
        </Button>
        <Button variant="danger" onClick={() => setConfirmDelete(true)}>
          {t('scheduling.cron.delete')}
        </Button>
      </div>
      <ErrorBanner error={failure} onDismiss={() => setFailure(undefined)} />
      <dl className="detail-list">
        <dt>{t('scheduling.field.action')}</dt>
        <dd>
          <Link href={workspace.href(`/actions/${encodeURIComponent(data.actionId)}`)} className="mono">
            {data.actionId}
          </Link>
        </dd>
        <dt>{t('scheduling.field.schedule')}</dt>
        <dd>
          {describeSchedule(data.schedule, t)} <span className="muted">({data.timeZone})</span>
          <div>
            {data.expressions.map((expression) => (
              <code key={expression} className="preview-expression">
                {expression}
              </code>
            ))}
          </div>
        </dd>
        <dt>{t('scheduling.preview.nextRun')}</dt>
        <dd data-testid="next-run">
          {data.nextRuns[0]
            ? formatInZone(data.nextRuns[0], data.timeZone, language)
            : t('scheduling.cron.noNextRun')}
        </dd>
        <dt>{t('scheduling.preview.secondRun')}</dt>
        <dd data-testid="second-run">
          {data.nextRuns[1] ? formatInZone(data.nextRuns[1], data.timeZone, language) : '—'}
        </dd>
        <dt>{t('scheduling.field.arguments')}</dt>
        <dd>
          {argumentEntries.length === 0 ? (
            <span className="muted">{t('scheduling.cron.noArguments')}</span>
          ) : (
            <ul className="plain-list">
              {argumentEntries.map(([key, value]) => (
                <li key={key}>
                  <span className="mono">{key}</span> = <span className="mono">{JSON.stringify(value)}</span>
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>{t('scheduling.field.executor')}</dt>
        <dd>
          {data.executor.email ?? data.executor.id}{' '}
          <span className="muted small">({t(`scheduling.executorKind.${data.executor.kind}`)})</span>
        </dd>
        <dt>{t('scheduling.field.setter')}</dt>
        <dd>{data.setBy.email}</dd>
        <dt>{t('scheduling.field.overlap')}</dt>
        <dd>{t(`scheduling.overlap.${data.overlap}`)}</dd>
      </dl>
      <CronRunHistory jobId={jobId} timeZone={data.timeZone} refreshKey={ranNow} />
      <Dialog
        open={confirmDelete}
        title={t('scheduling.cron.deleteTitle', { name: data.name })}
        danger
        busy={busy}
        confirmLabel={t('scheduling.cron.delete')}
        onConfirm={() => void remove()}
        onCancel={() => setConfirmDelete(false)}
      >
        <p>{t('scheduling.cron.deleteDetail')}</p>
      </Dialog>
    </section>
  );
}
