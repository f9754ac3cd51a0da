/** The environment's cron jobs: name, action, schedule, operating state, who set it, who it runs as. */
import { api } from '../../api/client.ts';
import { Link } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import { EmptyState, ErrorBanner, ListTable, useAsync } from '../../components/index.ts';
import { formatInZone } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { type CronJob, schedulingPaths } from './api.ts';
import { describeSchedule } from './describe-schedule.ts';

export function CronJobListScreen() {
  const t = useT();
  const { language } = useLanguage();
  const workspace = useWorkspace();
  const jobs = useAsync(
    () =>
      api
        .get<{ data: CronJob[] }>(schedulingPaths.cronJobs(workspace.projectId, workspace.environmentId))
        .then((list) => list.data),
    [workspace.projectId, workspace.environmentId],
  );
  return (
    <section className="screen" aria-labelledby="cron-title">
      <div className="screen-header">
        <h1 id="cron-title">{t('scheduling.cron.title')}</h1>
        <Link href={workspace.href('/cron-jobs/new')} className="btn btn-primary">
          {t('scheduling.cron.new')}
        </Link>
      </div>
      <ErrorBanner error={jobs.error} />
      {jobs.loading ? <p className="muted">{t('common.loading')}</p> : null}
      <ListTable
        label={t('scheduling.cron.title')}
        columns={[
          t('scheduling.field.name'),
          t('scheduling.field.action'),
          t('scheduling.field.schedule'),
          t('scheduling.field.state'),
          t('scheduling.field.nextRun'),
          t('scheduling.field.setter'),
          t('scheduling.field.executor'),
        ]}
        items={jobs.data}
        empty={<EmptyState title={t('scheduling.cron.none')}>{t('scheduling.cron.noneDetail')}</EmptyState>}
        row={(job) => (
          <tr key={job.id}>
            <td>
              <Link href={workspace.href(`/cron-jobs/${encodeURIComponent(job.id)}`)}>{job.name}</Link>
            </td>
            <td className="mono">{job.actionId}</td>
            <td>
              {describeSchedule(job.schedule, t)}
              <span className="muted small"> ({job.timeZone})</span>
            </td>
            <td>
              <span className={`state-badge state-${job.state}`}>{t(`scheduling.state.${job.state}`)}</span>
            </td>
            <td>{job.nextRuns[0] ? formatInZone(job.nextRuns[0], job.timeZone, language) : '—'}</td>
            <td>{job.setBy.email}</td>
            <td>{job.executor.email ?? job.executor.id}</td>
          </tr>
        )}
      />
    </section>
  );
}
