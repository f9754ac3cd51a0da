/** Actions to edit: the list with links to the editor, and a new action. */
import { api } from '../../api/client.ts';
import { apiPaths } from '../../api/paths.ts';
import type { ActionDefinition, ListOf } from '../../api/types.ts';
import { Link } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import { EmptyState, ErrorBanner, ListTable, useAsync } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';

export function ActionEditorListScreen() {
  const t = useT();
  const workspace = useWorkspace();
  const actions = useAsync(
    () => api.get<ListOf<ActionDefinition>>(apiPaths.actions(workspace.projectId)),
    [workspace.projectId],
  );
  return (
    <section className="screen" aria-labelledby="action-editor-list-title">
      <div className="screen-header">
        <h1 id="action-editor-list-title">{t('editors.actions.title')}</h1>
        <div className="header-spacer" />
        <Link href={workspace.href('/editor/actions/new')} className="btn btn-primary">
          {t('editors.actions.new')}
        </Link>
      </div>
      <ErrorBanner error={actions.error} />
      <ListTable
        label={t('editors.actions.title')}
        columns={[
          t('editors.name'),
          t('editors.id'),
          t('editors.actions.dataSource'),
          t('governance.versions.version'),
        ]}
        items={actions.data?.data}
        empty={<EmptyState title={t('actions.none')} />}
        row={(action) => (
          <tr key={action.id}>
            <td>
              <Link href={workspace.href(`/editor/actions/${encodeURIComponent(action.id)}`)}>
                {action.name}
              </Link>
            </td>
            <td className="mono">{action.id}</td>
            <td className="mono">{action.dataSourceId}</td>
            <td>
              <Link href={workspace.href(`/actions/${encodeURIComponent(action.id)}/versions`)}>
                v{action.version ?? '?'}
              </Link>
            </td>
          </tr>
        )}
      />
    </section>
  );
}
