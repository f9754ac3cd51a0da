/** The project's actions, grouped by action group (then "Other actions"), with a search box. */
import { useMemo, useState } from 'react';
import { api } from '../../api/client.ts';
import { apiPaths } from '../../api/paths.ts';
import type { ActionDefinition, ActionGroup, ListOf } from '../../api/types.ts';
import { Link } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import { EmptyState, ErrorBanner, useAsync } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { GroupViewCards, loadViewSummaries, viewsOfGroup } from '../views/group-views.tsx';
import type { ViewSummary } from '../views/view-api.ts';

interface Section {
  id: string;
  title: string;
  actions: ActionDefinition[];
  /** The views assigned to the group (none in "Other actions": views without a group are under Views). */
  views: ViewSummary[];
}

export function groupActions(
  actions: ActionDefinition[],
  groups: ActionGroup[],
  otherTitle: string,
  views: readonly ViewSummary[] = [],
): Section[] {
  const byId = new Map(actions.map((action) => [action.id, action]));
  const grouped = new Set<string>();
  const sections: Section[] = [];
  for (const group of groups) {
    const members = group.actionIds
      .map((id) => byId.get(id))
      .filter((a): a is ActionDefinition => Boolean(a));
    for (const action of members) grouped.add(action.id);
    const groupViews = viewsOfGroup(views, group.id);
    if (members.length || groupViews.length) {
      sections.push({ id: group.id, title: group.name, actions: members, views: groupViews });
    }
  }
  const rest = actions
    .filter((action) => !grouped.has(action.id))
    .sort((a, b) => a.name.localeCompare(b.name));
  if (rest.length) sections.push({ id: '', title: otherTitle, actions: rest, views: [] });
  return sections;
}

function matches(item: { id: string; name: string; description?: string }, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [item.id, item.name, item.description ?? ''].some((text) => text.toLowerCase().includes(q));
}

export function ActionListScreen() {
  const t = useT();
  const workspace = useWorkspace();
  const [query, setQuery] = useState('');
  const loaded = useAsync(async () => {
    const [actions, groups, views] = await Promise.all([
      api.get<ListOf<ActionDefinition>>(apiPaths.actions(workspace.projectId)),
      api.get<ListOf<ActionGroup>>(apiPaths.actionGroups(workspace.projectId)).catch(() => ({ data: [] })),
      loadViewSummaries(workspace.projectId),
    ]);
    return { actions: actions.data, groups: groups.data, views };
  }, [workspace.projectId]);
  const sections = useMemo(() => {
    if (!loaded.data) return [];
    const filtered = loaded.data.actions.filter((action) => matches(action, query));
    const groups = loaded.data.groups;
    return groupActions(
      filtered,
      groups,
      groups.length ? t('actions.otherActions') : t('actions.allActions'),
      loaded.data.views.filter((view) => matches(view, query)),
    );
  }, [loaded.data, query, t]);

  return (
    <section className="screen" aria-labelledby="actions-title">
      <div className="screen-header">
        <h1 id="actions-title">{t('actions.title')}</h1>
        <label className="search">
          <span className="visually-hidden">{t('actions.search')}</span>
          <input
            type="search"
            placeholder={t('actions.searchPlaceholder')}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        </label>
      </div>
      <ErrorBanner error={loaded.error} />
      {loaded.loading ? <p className="muted">{t('common.loading')}</p> : null}
      {loaded.data && sections.length === 0 ? (
        <EmptyState title={query ? t('actions.noMatch', { query }) : t('actions.none')} />
      ) : null}
      {sections.map((section) => (
        <section key={section.id || '-'} className="action-section" aria-label={section.title}>
          <h2 className="section-title">{section.title}</h2>
          <ul className="action-list">
            {section.actions.map((action) => (
              <li key={action.id}>
                <Link
                  href={workspace.href(`/actions/${encodeURIComponent(action.id)}`)}
                  className="action-card"
                >
                  <span className="action-card-name">{action.name}</span>
                  <span className={`kind-badge kind-${action.kind}`}>{action.kind.toUpperCase()}</span>
                  {action.review?.required ? (
                    <span className="kind-badge kind-review">{t('actions.reviewRequired')}</span>
                  ) : null}
                  <span className="action-card-id mono">{action.id}</span>
                  {action.description ? (
                    <span className="action-card-description">{action.description}</span>
                  ) : null}
                </Link>
              </li>
            ))}
          </ul>
          <GroupViewCards views={section.views} />
        </section>
      ))}
    </section>
  );
}
