/** The views the caller may see, grouped under the action groups they belong to (navigation next to actions). */
import { api } from '../../api/client.ts';
import { apiPaths } from '../../api/paths.ts';
import type { ActionGroup, ListOf } from '../../api/types.ts';
import { Link } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import { EmptyState, ErrorBanner, useAsync } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { type ViewSummary, viewPaths } from './view-api.ts';
import './views.css';

export function ViewListScreen() {
  const t = useT();
  const workspace = useWorkspace();
  const nav = useAsync(async () => {
    const [views, groups] = await Promise.all([
      api.get<ListOf<ViewSummary>>(viewPaths.views(workspace.projectId)),
      api.get<ListOf<ActionGroup>>(apiPaths.actionGroups(workspace.projectId)).catch(() => ({ data: [] })),
    ]);
    const byName = [...views.data].sort((a, b) => a.name.localeCompare(b.name));
    return {
      groups: groups.data
        .map((group) => ({ ...group, views: byName.filter((v) => v.groupId === group.id) }))
        .filter((group) => group.views.length > 0),
      ungrouped: byName.filter((v) => !v.groupId || !groups.data.some((g) => g.id === v.groupId)),
    };
  }, [workspace.projectId]);
  const groups = nav.data?.groups ?? [];
  const empty = nav.data && groups.length === 0 && nav.data.ungrouped.length === 0;
  return (
    <section className="screen" aria-labelledby="views-title">
      <div className="screen-header">
        <h1 id="views-title">{t('views.title')}</h1>
        <div className="view-list-actions">
          <Link className="btn btn-primary" href={workspace.href('/views-new/visual')}>
            {t('views.newVisual')}
          </Link>
          <Link className="btn btn-secondary" href={workspace.href('/views-new/code')}>
            {t('views.newCode')}
          </Link>
        </div>
      </div>
      {nav.error ? <ErrorBanner error={nav.error} /> : null}
      {!nav.data && !nav.error ? <p className="muted">{t('common.loading')}</p> : null}
      {empty ? <EmptyState title={t('views.none')}>{t('views.noneDetail')}</EmptyState> : null}
      {groups.map((group) => (
        <ViewGroup key={group.id} title={group.name} views={group.views} />
      ))}
      {nav.data && nav.data.ungrouped.length > 0 ? (
        <ViewGroup title={groups.length ? t('views.ungrouped') : ''} views={nav.data.ungrouped} />
      ) : null}
    </section>
  );
}

function ViewGroup({ title, views }: { title: string; views: ViewSummary[] }) {
  const t = useT();
  const workspace = useWorkspace();
  return (
    // Only a titled group is a landmark of its own: the untitled one would repeat the screen's name.
    <section className="view-group" {...(title ? { 'aria-label': title } : {})}>
      {title ? <h2>{title}</h2> : null}
      <ul className="view-list">
        {views.map((view) => (
          <li key={view.id}>
            <Link href={workspace.href(`/views/${encodeURIComponent(view.id)}`)} className="view-list-name">
              {view.name}
            </Link>
            {view.kind ? (
              <span className={`kind-badge kind-view-${view.kind}`}>{t(`views.kind.${view.kind}`)}</span>
            ) : null}
            <span className="mono muted small">{view.id}</span>
            {view.description ? <span className="muted small">{view.description}</span> : null}
            <Link
              href={workspace.href(`/views/${encodeURIComponent(view.id)}/edit`)}
              className="btn btn-quiet btn-small"
            >
              {t('views.edit')}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
