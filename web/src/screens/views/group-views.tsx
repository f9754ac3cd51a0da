/**
 * Views listed inside their action group (issue 29, decision 0222): the action list, the groups
 * screen and a group's own screen show the views whose `groupId` is that group next to its actions.
 * `GET /views` already answers only the views the caller may see, each with its `groupId`.
 */
import { api } from '../../api/client.ts';
import type { ListOf } from '../../api/types.ts';
import { Link } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import { useT } from '../../i18n/index.tsx';
import { type ViewSummary, viewPaths } from './view-api.ts';
import './views.css';

/** The views the caller may see, by name; none when they may not list views. */
export const loadViewSummaries = (projectId: string): Promise<ViewSummary[]> =>
  api
    .get<ListOf<ViewSummary>>(viewPaths.views(projectId))
    .then((list) => [...list.data].sort((a, b) => a.name.localeCompare(b.name)))
    .catch(() => []);

export const viewsOfGroup = (views: readonly ViewSummary[], groupId: string) =>
  views.filter((view) => view.groupId === groupId);

/** A group's views as cards like its actions', each opening the view. */
export function GroupViewCards({ views }: { views: readonly ViewSummary[] }) {
  const t = useT();
  const workspace = useWorkspace();
  if (views.length === 0) return null;
  return (
    <ul className="action-list" aria-label={t('actions.groupViews')}>
      {views.map((view) => (
        <li key={view.id}>
          <Link href={workspace.href(`/views/${encodeURIComponent(view.id)}`)} className="action-card">
            <span className="action-card-name">{view.name}</span>
            <span className="kind-badge kind-view-visual">{t('actions.viewBadge')}</span>
            <span className="action-card-id mono">{view.id}</span>
            {view.description ? <span className="action-card-description">{view.description}</span> : null}
          </Link>
        </li>
      ))}
    </ul>
  );
}
