/**
 * Project settings → AI agents (docs/agents.md, decision 0237): which actions agents reaching the
 * project over MCP may see — every action their principal may run, or only those chosen here — and
 * whether a data-changing action an agent calls may run without a person's review. That is off by
 * default and turning it on is confirmed first. Saving replaces the settings through the project
 * settings API; whoever lacks `manage_project` sees them read-only.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { api, pathOf } from '../../api/client.ts';
import { errorAt, pointerErrors } from '../../api/field-errors.ts';
import { apiPaths } from '../../api/paths.ts';
import type { ActionDefinition, ActionGroup, AgentSettings, ListOf, Project } from '../../api/types.ts';
import type { ProjectAccess } from '../../app/project-access.ts';
import { useWorkspace } from '../../app/workspace.tsx';
import { Button, Dialog, ErrorBanner, Field, useAsync, useToast } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';

const projectPath = (projectId: string) => pathOf`/api/v1/projects/${projectId}`;
const settingsPath = (projectId: string) => pathOf`/api/v1/projects/${projectId}/settings`;

const defaults: AgentSettings = {
  visible: 'all',
  actionIds: [],
  actionGroupIds: [],
  changesWithoutReview: false,
};

const toggled = (list: string[], id: string, on: boolean) =>
  on ? [...new Set([...list, id])].sort() : list.filter((item) => item !== id);

export function AgentSettingsScreen() {
  const t = useT();
  const toast = useToast();
  const { projectId } = useWorkspace();
  const loaded = useAsync(async () => {
    const [project, actions, groups] = await Promise.all([
      api.get<Project & { access?: ProjectAccess; agents?: AgentSettings }>(projectPath(projectId)),
      api.get<ListOf<ActionDefinition>>(apiPaths.actions(projectId)),
      api.get<ListOf<ActionGroup>>(apiPaths.actionGroups(projectId)).catch(() => ({ data: [] })),
    ]);
    return { project, actions: actions.data, groups: groups.data };
  }, [projectId]);
  const access = loaded.data?.project.access;
  const mayManage = loaded.data ? (access?.rights ?? []).includes('manage_project') : undefined;
  const roleNames = (access?.roles ?? []).map((role) => t(`identity.role.${role}`)).join(', ');
  const [draft, setDraft] = useState<AgentSettings>(defaults);
  const [confirming, setConfirming] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (loaded.data) setDraft({ ...defaults, ...loaded.data.project.agents });
  }, [loaded.data]);
  const set = (patch: Partial<AgentSettings>) => setDraft((current) => ({ ...current, ...patch }));
  const readOnly = mayManage !== true;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setErrors({});
    setFailure(undefined);
    try {
      const saved = await api.put<Project & { agents?: AgentSettings }>(settingsPath(projectId), {
        agents: draft,
      });
      setDraft({ ...defaults, ...saved.agents });
      toast(t('agents.settings.saved'));
    } catch (error) {
      setFailure(error);
      setErrors(pointerErrors(error));
    } finally {
      setSaving(false);
    }
  };

  const actions = loaded.data?.actions ?? [];
  const groups = loaded.data?.groups ?? [];
  const listError = errorAt(errors, 'agents/actionIds') ?? errorAt(errors, 'agents/actionGroupIds');
  const claimed = Object.keys(errors).some((key) => key.startsWith('agents/'));

  return (
    <section className="screen" aria-labelledby="agent-settings-title">
      <div className="screen-header">
        <h1 id="agent-settings-title">{t('agents.settings.title')}</h1>
      </div>
      <p className="hint">{t('agents.settings.intro')}</p>
      {mayManage === false ? (
        <p className="notice notice-info" role="note">
          {t('agents.settings.readOnly', { roles: roleNames || '—' })}
        </p>
      ) : null}
      <ErrorBanner error={loaded.error ?? (claimed ? undefined : failure)} />
      <form onSubmit={save} noValidate aria-label={t('agents.settings.title')} className="editor-form">
        <fieldset disabled={readOnly}>
          <legend className="field-label">{t('agents.settings.visible')}</legend>
          {(['all', 'listed'] as const).map((visible) => (
            <label key={visible} className="checkbox agent-choice">
              <input
                type="radio"
                name="agent-visible"
                value={visible}
                checked={draft.visible === visible}
                onChange={() => set({ visible })}
              />
              {t(`agents.settings.visible.${visible}`)}
            </label>
          ))}
          {errorAt(errors, 'agents/visible') ? (
            <p className="field-error">{errorAt(errors, 'agents/visible')}</p>
          ) : null}
        </fieldset>
        {draft.visible === 'listed' ? (
          <Field
            label={t('agents.settings.chosen')}
            group
            error={listError}
            hint={t('agents.settings.chosenHint')}
          >
            <div className="agent-lists">
              <fieldset disabled={readOnly}>
                <legend className="field-label">{t('agents.settings.actions')}</legend>
                {actions.length === 0 ? <p className="muted">{t('agents.settings.noActions')}</p> : null}
                <ul className="plain-list agent-list">
                  {actions.map((action) => (
                    <li key={action.id}>
                      <label className="checkbox">
                        <input
                          type="checkbox"
                          checked={draft.actionIds.includes(action.id)}
                          onChange={(event) =>
                            set({ actionIds: toggled(draft.actionIds, action.id, event.target.checked) })
                          }
                        />
                        <span>
                          {action.name} <span className="mono muted small">{action.id}</span>
                          {action.effect === 'changes' ? (
                            <span className="muted small"> · {t('agents.settings.changesData')}</span>
                          ) : null}
                        </span>
                      </label>
                    </li>
                  ))}
                </ul>
              </fieldset>
              {groups.length ? (
                <fieldset disabled={readOnly}>
                  <legend className="field-label">{t('agents.settings.groups')}</legend>
                  <ul className="plain-list agent-list">
                    {groups.map((group) => (
                      <li key={group.id}>
                        <label className="checkbox">
                          <input
                            type="checkbox"
                            checked={draft.actionGroupIds.includes(group.id)}
                            onChange={(event) =>
                              set({
                                actionGroupIds: toggled(draft.actionGroupIds, group.id, event.target.checked),
                              })
                            }
                          />
                          <span>
                            {group.name}{' '}
                            <span className="muted small">
                              {t('agents.settings.groupSize', { count: group.actionIds.length })}
                            </span>
                          </span>
                        </label>
                      </li>
                    ))}
                  </ul>
                </fieldset>
              ) : null}
            </div>
          </Field>
        ) : null}
        <fieldset disabled={readOnly}>
          <legend className="field-label">{t('agents.settings.review')}</legend>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={draft.changesWithoutReview}
              onChange={(event) => {
                // Turning review off for agents is asked first; turning it back on is not.
                if (event.target.checked) setConfirming(true);
                else set({ changesWithoutReview: false });
              }}
            />
            {t('agents.settings.changesWithoutReview')}
          </label>
          <p className="field-hint">
            {draft.changesWithoutReview ? t('agents.settings.reviewOff') : t('agents.settings.reviewOn')}
          </p>
          {errorAt(errors, 'agents/changesWithoutReview') ? (
            <p className="field-error">{errorAt(errors, 'agents/changesWithoutReview')}</p>
          ) : null}
        </fieldset>
        {mayManage === false ? null : (
          <div className="form-actions">
            <Button type="submit" variant="primary" busy={saving} disabled={!mayManage}>
              {t('agents.settings.save')}
            </Button>
          </div>
        )}
      </form>
      <Dialog
        open={confirming}
        title={t('agents.settings.confirmTitle')}
        danger
        confirmLabel={t('agents.settings.confirm')}
        onConfirm={() => {
          set({ changesWithoutReview: true });
          setConfirming(false);
        }}
        onCancel={() => setConfirming(false)}
      >
        <p>{t('agents.settings.confirmBody')}</p>
      </Dialog>
    </section>
  );
}
