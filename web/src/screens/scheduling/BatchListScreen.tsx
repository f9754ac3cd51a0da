/** The environment's batches with their progress, and where to start a new one (pick the action). */
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { Link, navigate } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import {
  Button,
  EmptyState,
  ErrorBanner,
  ListTable,
  useAsync,
  useRefreshWhile,
} from '../../components/index.ts';
import { formatTime } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { ActionSelect, useActionList } from './action-arguments.tsx';
import { type Batch, type BatchProgress, schedulingPaths } from './api.ts';

export function BatchListScreen() {
  const t = useT();
  const { language } = useLanguage();
  const workspace = useWorkspace();
  const { projectId, environmentId } = workspace;
  const batches = useAsync(
    () =>
      api.get<{ data: (Batch & { progress: BatchProgress })[] }>(
        schedulingPaths.batchList(projectId, environmentId),
      ),
    [projectId, environmentId],
  );
  useRefreshWhile(
    Boolean(batches.data?.data.some((batch) => batch.status === 'waiting' || batch.status === 'running')),
    batches,
  );
  const actions = useActionList();
  const [actionId, setActionId] = useState('');
  return (
    <section className="screen" aria-labelledby="batches-title">
      <h1 id="batches-title">{t('scheduling.batch.listTitle')}</h1>
      <form
        className="inline-fields"
        onSubmit={(event) => {
          event.preventDefault();
          if (actionId) navigate(workspace.href(`/actions/${encodeURIComponent(actionId)}/batch`));
        }}
      >
        <ActionSelect value={actionId} onChange={setActionId} actions={actions.data} />
        <Button type="submit" variant="primary" disabled={!actionId}>
          {t('scheduling.batch.new')}
        </Button>
      </form>
      <ErrorBanner error={batches.error} />
      <ListTable
        label={t('scheduling.batch.listTitle')}
        columns={[
          t('scheduling.batch.id'),
          t('scheduling.field.action'),
          t('scheduling.field.state'),
          t('scheduling.batch.progress'),
          t('scheduling.batch.createdAt'),
        ]}
        items={batches.data?.data}
        empty={<EmptyState title={t('scheduling.batch.none')} />}
        row={(batch) => (
          <tr key={batch.id}>
            <td>
              <Link href={workspace.href(`/batches/${encodeURIComponent(batch.id)}`)} className="mono">
                {batch.id}
              </Link>
            </td>
            <td className="mono">{batch.actionId}</td>
            <td>{t(`scheduling.batchStatus.${batch.status}`)}</td>
            <td>
              {batch.progress.success + batch.progress.failure} / {batch.progress.total}
              {batch.progress.failure ? (
                <span className="error-text">
                  {' '}
                  ({t('scheduling.batch.failed', { n: batch.progress.failure })})
                </span>
              ) : null}
            </td>
            <td>{formatTime(batch.createdAt, language)}</td>
          </tr>
        )}
      />
    </section>
  );
}
