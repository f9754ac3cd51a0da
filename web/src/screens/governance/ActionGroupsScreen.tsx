/**
 * Action groups: the project's groups, a new group, and the order of a group's actions (drag and
 * drop or move buttons), saved with `PUT …/order`. Each group has a screen that runs its actions.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import { errorAt, pointerErrors } from '../../api/field-errors.ts';
import { apiPaths } from '../../api/paths.ts';
import type { ActionDefinition, ListOf } from '../../api/types.ts';
import { Link } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import { Button, EmptyState, ErrorBanner, Field, useAsync, useToast } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { GroupViewCards, loadViewSummaries, viewsOfGroup } from '../views/group-views.tsx';
import type { ViewSummary } from '../views/view-api.ts';
import { type ActionGroupDetail, governancePaths } from './api.ts';
import { ReorderList } from './ReorderList.tsx';

export function ActionGroupsScreen() {
  const t = useT();
  const toast = useToast();
  const workspace = useWorkspace();
  const { projectId } = workspace;
  const groups = useAsync(
    () => api.get<ListOf<ActionGroupDetail>>(governancePaths.actionGroups(projectId)).then((l) => l.data),
    [projectId],
  );
  const actions = useAsync(
    () => api.get<ListOf<ActionDefinition>>(apiPaths.actions(projectId)).then((l) => l.data),
    [projectId],
  );
  const views = useAsync(() => loadViewSummaries(projectId), [projectId]);
  const [selected, setSelected] = useState<string>();
  const [order, setOrder] = useState<string[]>([]);
  const [failure, setFailure] = useState<unknown>();
  const [saving, setSaving] = useState(false);
  const group = groups.data?.find((g) => g.id === selected) ?? groups.data?.[0];

  useEffect(() => {
    if (group) setOrder(group.actionIds);
  }, [group]);

  const nameOf = (id: string) => actions.data?.find((a) => a.id === id)?.name ?? id;
  const changed = group ? order.join('\n') !== group.actionIds.join('\n') : false;

  const saveOrder = async () => {
    if (!group) return;
    setSaving(true);
    setFailure(undefined);
    try {
      await api.put(governancePaths.actionGroupOrder(projectId, group.id), { actionIds: order });
      toast(t('governance.groups.orderSaved'));
      groups.reload();
    } catch (error) {
      setFailure(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="screen" aria-labelledby="groups-title">
      <h1 id="groups-title">{t('governance.groups.title')}</h1>
      <ErrorBanner error={groups.error ?? failure} />
      <div className="two-columns">
        <div>
          {groups.data && groups.data.length === 0 ? (
            <EmptyState title={t('governance.groups.none')} />
          ) : null}
          <ul className="plain-list group-list">
            {(groups.data ?? []).map((g) => (
              <li key={g.id}>
                <Button
                  variant={g.id === group?.id ? 'primary' : 'quiet'}
                  aria-pressed={g.id === group?.id}
                  onClick={() => setSelected(g.id)}
                >
                  {g.name}
                </Button>
              </li>
            ))}
          </ul>
          <NewGroupForm
            actions={actions.data ?? []}
            onCreated={(id) => {
              setSelected(id);
              groups.reload();
            }}
          />
        </div>
        {group ? (
          <div>
            <div className="screen-header">
              <h2 className="section-title">{group.name}</h2>
              <div className="header-spacer" />
              <Link
                href={workspace.href(`/action-groups/${encodeURIComponent(group.id)}`)}
                className="btn btn-secondary"
              >
                {t('governance.groups.open')}
              </Link>
            </div>
            <p className="muted small">{t('governance.groups.reorderHint')}</p>
            <ReorderList
              label={t('governance.groups.orderOf', { name: group.name })}
              items={order.map((id) => ({ id, label: nameOf(id) }))}
              onChange={setOrder}
            />
            <div className="form-actions">
              <Button variant="primary" disabled={!changed} busy={saving} onClick={() => void saveOrder()}>
                {t('governance.groups.saveOrder')}
              </Button>
              <Button disabled={!changed} onClick={() => setOrder(group.actionIds)}>
                {t('governance.groups.resetOrder')}
              </Button>
            </div>
            <GroupViews views={viewsOfGroup(views.data ?? [], group.id)} />
          </div>
        ) : null}
      </div>
    </section>
  );
}

/** The views assigned to the group (a view's own setting: its builder's Group field). */
function GroupViews({ views }: { views: ViewSummary[] }) {
  const t = useT();
  if (views.length === 0) return null;
  return (
    <section className="group-views" aria-labelledby="group-views-title">
      <h3 id="group-views-title" className="section-title">
        {t('actions.groupViews')}
      </h3>
      <p className="muted small">{t('governance.groups.viewsHint')}</p>
      <GroupViewCards views={views} />
    </section>
  );
}

function NewGroupForm({ actions, onCreated }: { actions: ActionDefinition[]; onCreated(id: string): void }) {
  const t = useT();
  const toast = useToast();
  const { projectId } = useWorkspace();
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>();
  const [saving, setSaving] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setErrors({});
    setFailure(undefined);
    try {
      await api.put(governancePaths.actionGroup(projectId, id), { id, name, actionIds: chosen });
      toast(t('governance.groups.created', { name }));
      setId('');
      setName('');
      setChosen([]);
      onCreated(id);
    } catch (error) {
      setFailure(error);
      setErrors(pointerErrors(error));
    } finally {
      setSaving(false);
    }
  };
  return (
    <form className="editor-form" onSubmit={submit} noValidate aria-label={t('governance.groups.new')}>
      <h2 className="section-title">{t('governance.groups.new')}</h2>
      {failure && Object.keys(errors).length === 0 ? <ErrorBanner error={failure} /> : null}
      <Field label={t('governance.groups.id')} required error={errorAt(errors, 'id')}>
        <input className="mono" value={id} onChange={(event) => setId(event.target.value)} />
      </Field>
      <Field label={t('governance.groups.name')} required error={errorAt(errors, 'name')}>
        <input value={name} onChange={(event) => setName(event.target.value)} />
      </Field>
      <Field label={t('governance.groups.actions')} group error={errorAt(errors, 'actionIds')}>
        <div className="choice-list">
          {actions.map((action) => (
            <label key={action.id} className="checkbox">
              <input
                type="checkbox"
                checked={chosen.includes(action.id)}
                onChange={(event) =>
                  setChosen((current) =>
                    event.target.checked ? [...current, action.id] : current.filter((x) => x !== action.id),
                  )
                }
              />
              {action.name}
            </label>
          ))}
        </div>
      </Field>
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={saving}>
          {t('governance.groups.create')}
        </Button>
      </div>
    </form>
  );
}
