/**
 * Editing an action: data source, titled SQL statements (or the HTTP method and path), the
 * parameters, who may run it, and whether a run needs a review. Saving makes a new version.
 * Copying makes a new action with the same settings.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { defaultEffect } from '../../../../shared/domain/action-effect.ts';
import { api } from '../../api/client.ts';
import { errorAt, pointerErrors, unclaimedErrors } from '../../api/field-errors.ts';
import { apiPaths } from '../../api/paths.ts';
import { Link, navigate } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import { Button, Dialog, ErrorBanner, Field, useAsync, useToast } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { ActionFields } from './ActionFields.tsx';
import {
  type ActionDraft,
  actionBody,
  actionDraftOf,
  emptyActionDraft,
  type ParameterDraft,
} from './action-draft.ts';
import { type DataSource, editorPaths } from './api.ts';
import { loadCatalog, loadConnectorKinds } from './connector-kinds.ts';
import { ParameterSettingsFields } from './ParameterSettingsFields.tsx';
import { emptySettings, settingMember, settingsOfKind } from './parameter-settings.ts';
import { callableActions, ScriptEditor } from './ScriptEditor.tsx';

const parameterKinds: ParameterDraft['kind'][] = [
  'text',
  'number',
  'boolean',
  'date',
  'array',
  'tuple',
  'sql',
  'json',
  'file',
  'system',
];
const roles = ['admin', 'development_lead', 'developer', 'operations_lead', 'member'];
const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'PURGE'];

export function ActionEditorScreen({ params }: { params: Record<string, string> }) {
  const t = useT();
  const toast = useToast();
  const workspace = useWorkspace();
  const { projectId } = workspace;
  const actionId = params.actionId;
  const loaded = useAsync(
    () =>
      actionId
        ? api.get<Record<string, unknown>>(editorPaths.action(projectId, actionId))
        : Promise.resolve(undefined),
    [projectId, actionId],
  );
  const sources = useAsync(
    () => api.get<{ data: DataSource[] }>(editorPaths.dataSources(projectId)),
    [projectId],
  );
  const kinds = useAsync(loadConnectorKinds, []);
  const projectActions = useAsync(
    () =>
      api.get<{
        data: {
          id: string;
          name: string;
          kind: string;
          parameters?: { name: string }[];
          permission?: unknown;
        }[];
      }>(editorPaths.actions(projectId)),
    [projectId],
  );
  /** Only a JavaScript action may hold "only from a JavaScript action" (the API refuses anything else). */
  const javascriptActions = useAsync(
    () =>
      api
        .get<{ data: { id: string; name: string; kind: string }[] }>(apiPaths.actions(workspace.projectId))
        .then((list) => list.data.filter((action) => action.kind === 'javascript')),
    [workspace.projectId],
  );
  const [draft, setDraft] = useState<ActionDraft>(emptyActionDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>();
  const [saving, setSaving] = useState(false);
  const [copy, setCopy] = useState<{ id: string; name: string }>();

  useEffect(() => {
    if (loaded.data) setDraft(actionDraftOf(loaded.data));
  }, [loaded.data]);

  const set = (patch: Partial<ActionDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const setParameter = (index: number, patch: Partial<ParameterDraft>) =>
    set({ parameters: draft.parameters.map((p, i) => (i === index ? { ...p, ...patch } : p)) });
  const setStatement = (index: number, patch: Partial<{ title: string; sql: string; previewSql: string }>) =>
    set({ statements: draft.statements.map((s, i) => (i === index ? { ...s, ...patch } : s)) });

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const built = actionBody(draft);
    if (!built.ok) {
      setErrors({ [`parameters/${built.parameter}/extra`]: t('editors.actions.extraNotJson') });
      return;
    }
    setSaving(true);
    setErrors({});
    setFailure(undefined);
    try {
      const saved = await api.put<{ id: string; version: number }>(
        editorPaths.action(projectId, draft.id),
        built.body,
      );
      toast(t('editors.actions.saved', { name: draft.name, version: saved.version }));
      if (!actionId) navigate(workspace.href(`/editor/actions/${encodeURIComponent(draft.id)}`));
      else loaded.reload();
    } catch (error) {
      setFailure(error);
      setErrors(pointerErrors(error));
    } finally {
      setSaving(false);
    }
  };

  const makeCopy = async () => {
    if (!copy || !actionId) return;
    try {
      await api.post(editorPaths.copy(projectId, actionId), {
        id: copy.id,
        ...(copy.name ? { name: copy.name } : {}),
      });
      toast(t('editors.actions.copied', { id: copy.id }));
      setCopy(undefined);
      navigate(workspace.href(`/editor/actions/${encodeURIComponent(copy.id)}`));
    } catch (error) {
      setFailure(error);
      setCopy(undefined);
    }
  };

  const leftOver = unclaimedErrors(errors, [
    'id',
    'name',
    'description',
    'dataSourceId',
    'statements',
    'parameters',
    'permission',
    'review',
    'effect',
    'method',
    'path',
    'transformer',
  ]);
  return (
    <section className="screen" aria-labelledby="action-editor-title">
      <Link href={workspace.href('/editor/actions')} className="back-link">
        ← {t('editors.actions.title')}
      </Link>
      <div className="screen-header">
        <h1 id="action-editor-title">
          {actionId
            ? t('editors.actions.editTitle', { name: draft.name || actionId })
            : t('editors.actions.newTitle')}
        </h1>
        <div className="header-spacer" />
        {actionId ? (
          <>
            <Link
              href={workspace.href(`/actions/${encodeURIComponent(actionId)}/versions`)}
              className="btn btn-secondary"
            >
              {t('editors.actions.versions')}
            </Link>
            <Button onClick={() => setCopy({ id: `${actionId}-copy`, name: '' })}>
              {t('editors.actions.copy')}
            </Button>
          </>
        ) : null}
      </div>
      <ErrorBanner
        error={loaded.error ?? (Object.keys(errors).length && !leftOver.length ? undefined : failure)}
      />
      <form className="editor-form" onSubmit={save} noValidate aria-label={t('editors.actions.form')}>
        <div className="inline-fields">
          <Field label={t('editors.id')} required error={errorAt(errors, 'id')}>
            <input
              className="mono"
              value={draft.id}
              readOnly={Boolean(actionId)}
              onChange={(e) => set({ id: e.target.value })}
            />
          </Field>
          <Field label={t('editors.name')} required error={errorAt(errors, 'name')}>
            <input value={draft.name} onChange={(e) => set({ name: e.target.value })} />
          </Field>
        </div>
        <Field label={t('editors.description')} error={errorAt(errors, 'description')}>
          <input value={draft.description} onChange={(e) => set({ description: e.target.value })} />
        </Field>
        <Field label={t('editors.actions.dataSource')} required error={errorAt(errors, 'dataSourceId')}>
          <select
            value={draft.dataSourceId}
            onChange={(e) => {
              const source = sources.data?.data.find((s) => s.id === e.target.value);
              const actionKind = kinds.data?.data.find((k) => k.kind === source?.kind)?.actionKind;
              set({ dataSourceId: e.target.value, kind: actionKind ?? 'sql' });
            }}
          >
            <option value="">{t('editors.actions.chooseDataSource')}</option>
            {(sources.data?.data ?? []).map((source) => (
              <option key={source.id} value={source.id}>
                {source.name} ({source.kind})
              </option>
            ))}
          </select>
        </Field>

        {draft.kind === 'sql' ? (
          <fieldset className="arguments">
            <legend className="field-label">{t('editors.actions.statements')}</legend>
            {draft.statements.map((statement, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: statements are positions; the server names them by index.
              <div key={index} className="statement-editor">
                <Field
                  label={t('editors.actions.statementTitle', { n: index + 1 })}
                  required
                  error={errorAt(errors, `statements/${index}/title`)}
                >
                  <input
                    value={statement.title}
                    onChange={(e) => setStatement(index, { title: e.target.value })}
                  />
                </Field>
                <Field
                  label={t('editors.actions.statementSql', { n: index + 1 })}
                  required
                  error={errorAt(errors, `statements/${index}/sql`)}
                >
                  <textarea
                    spellCheck={false}
                    value={statement.sql}
                    onChange={(e) => setStatement(index, { sql: e.target.value })}
                  />
                </Field>
                <Field
                  label={t('editors.actions.statementPreviewSql', { n: index + 1 })}
                  hint={t('editors.actions.statementPreviewSqlHint')}
                  error={errorAt(errors, `statements/${index}/previewSql`)}
                >
                  <textarea
                    spellCheck={false}
                    rows={2}
                    value={statement.previewSql ?? ''}
                    onChange={(e) => setStatement(index, { previewSql: e.target.value })}
                  />
                </Field>
                <Button
                  className="btn-small"
                  variant="quiet"
                  disabled={draft.statements.length === 1}
                  onClick={() => set({ statements: draft.statements.filter((_, i) => i !== index) })}
                >
                  {t('editors.actions.removeStatement', { n: index + 1 })}
                </Button>
              </div>
            ))}
            {errorAt(errors, 'statements') &&
            !Object.keys(errors).some((k) => k.startsWith('statements/')) ? (
              <div className="field-error">{errorAt(errors, 'statements')}</div>
            ) : null}
            <Button
              className="btn-small"
              onClick={() => set({ statements: [...draft.statements, { title: '', sql: '' }] })}
            >
              {t('editors.actions.addStatement')}
            </Button>
          </fieldset>
        ) : draft.kind !== 'http' ? (
          <ActionFields
            fields={kinds.data?.data.find((k) => k.actionKind === draft.kind)?.actionFields ?? []}
            values={draft.rest}
            errors={errors}
            onChange={(name, value) => set({ rest: { ...draft.rest, [name]: value } })}
            callable={callableActions(projectActions.data?.data ?? [], draft.id)}
            {...(draft.dataSourceId
              ? {
                  loadCatalog: () => loadCatalog(projectId, draft.dataSourceId, workspace.environmentId),
                  onFill: (fill: Record<string, unknown>) =>
                    setDraft((current) => ({ ...current, rest: { ...current.rest, ...fill } })),
                }
              : {})}
          />
        ) : (
          <div className="inline-fields">
            <Field label={t('editors.actions.method')} error={errorAt(errors, 'method')}>
              <select value={draft.method} onChange={(e) => set({ method: e.target.value })}>
                {methods.map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </Field>
            <Field label={t('editors.actions.path')} error={errorAt(errors, 'path')}>
              <input className="mono" value={draft.path} onChange={(e) => set({ path: e.target.value })} />
            </Field>
          </div>
        )}

        <fieldset className="arguments">
          <legend className="field-label">{t('editors.actions.parameters')}</legend>
          {draft.parameters.map((parameter, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: parameters are positions; the server names them by index.
            <div key={index} className="parameter-editor">
              <div className="inline-fields">
                <Field
                  label={t('editors.actions.parameterName', { n: index + 1 })}
                  required
                  error={errorAt(errors, `parameters/${index}/name`)}
                >
                  <input
                    className="mono"
                    value={parameter.name}
                    onChange={(e) => setParameter(index, { name: e.target.value })}
                  />
                </Field>
                <Field
                  label={t('editors.actions.parameterKind', { n: index + 1 })}
                  error={errorAt(errors, `parameters/${index}/kind`)}
                >
                  <select
                    value={parameter.kind}
                    onChange={(e) => setParameter(index, { kind: e.target.value as ParameterDraft['kind'] })}
                  >
                    {parameterKinds.map((kind) => (
                      <option key={kind}>{kind}</option>
                    ))}
                  </select>
                </Field>
                <Field
                  label={t('editors.actions.parameterLabel', { n: index + 1 })}
                  error={errorAt(errors, `parameters/${index}/label`)}
                >
                  <input
                    value={parameter.label}
                    onChange={(e) => setParameter(index, { label: e.target.value })}
                  />
                </Field>
                <label className="checkbox">
                  <input
                    type="checkbox"
                    checked={parameter.required}
                    onChange={(e) => setParameter(index, { required: e.target.checked })}
                  />
                  {t('editors.actions.required')}
                </label>
                <Button
                  className="btn-small"
                  variant="quiet"
                  onClick={() => set({ parameters: draft.parameters.filter((_, i) => i !== index) })}
                  aria-label={t('editors.actions.removeParameter', { n: index + 1 })}
                >
                  ×
                </Button>
              </div>
              <ParameterSettingsFields
                index={index}
                kind={parameter.kind}
                settings={parameter.settings}
                errors={errors}
                onChange={(patch) => setParameter(index, { settings: { ...parameter.settings, ...patch } })}
              />
              <Field
                label={t('editors.actions.parameterExtra', { n: index + 1 })}
                hint={t('editors.actions.parameterExtraHint')}
                error={
                  errors[`parameters/${index}/extra`] ??
                  (unclaimedErrors(
                    Object.fromEntries(
                      Object.entries(errors).filter(([k]) => k.startsWith(`parameters/${index}/`)),
                    ),
                    [
                      `parameters/${index}/name`,
                      `parameters/${index}/kind`,
                      `parameters/${index}/label`,
                      ...(settingsOfKind[parameter.kind] ?? []).map(
                        (setting) => `parameters/${index}/${settingMember(setting)}`,
                      ),
                    ],
                  ).join(' ') ||
                    undefined)
                }
              >
                <textarea
                  className="mono"
                  rows={2}
                  value={parameter.extra}
                  onChange={(e) => setParameter(index, { extra: e.target.value })}
                />
              </Field>
            </div>
          ))}
          <Button
            className="btn-small"
            onClick={() =>
              set({
                parameters: [
                  ...draft.parameters,
                  { name: '', kind: 'text', label: '', required: false, settings: emptySettings, extra: '' },
                ],
              })
            }
          >
            {t('editors.actions.addParameter')}
          </Button>
        </fieldset>

        <fieldset className="arguments">
          <legend className="field-label">{t('editors.actions.transformer')}</legend>
          <Field
            label={t('editors.actions.transformerScript')}
            hint={t('editors.actions.transformerHint')}
            error={errorAt(errors, 'transformer/script') ?? errorAt(errors, 'transformer')}
          >
            {(control) => (
              <ScriptEditor
                control={control}
                rows={5}
                value={draft.transformerScript}
                onChange={(transformerScript) => set({ transformerScript })}
              />
            )}
          </Field>
          <Field
            label={t('editors.actions.transformerTimeLimit')}
            error={errorAt(errors, 'transformer/timeLimitMs')}
          >
            <input
              type="number"
              min={100}
              max={60000}
              value={draft.transformerTimeLimitMs}
              placeholder="5000"
              onChange={(e) => set({ transformerTimeLimitMs: e.target.value })}
            />
          </Field>
        </fieldset>

        <fieldset className="arguments">
          <legend className="field-label">{t('editors.actions.permission')}</legend>
          <Field
            label={t('editors.actions.permissionMode')}
            error={
              // The holder's message sits at the holder's own select when it is shown.
              draft.permissionMode === 'javascript_action' ? errors.permission : errorAt(errors, 'permission')
            }
          >
            <select
              value={draft.permissionMode}
              onChange={(e) => set({ permissionMode: e.target.value as ActionDraft['permissionMode'] })}
            >
              <option value="everyone">{t('editors.actions.mode.everyone')}</option>
              <option value="restricted">{t('editors.actions.mode.restricted')}</option>
              <option
                value="javascript_action"
                disabled={!javascriptActions.data?.length && draft.permissionMode !== 'javascript_action'}
              >
                {t('editors.actions.mode.javascript_action')}
              </option>
            </select>
          </Field>
          {javascriptActions.data && javascriptActions.data.length === 0 ? (
            <p className="muted small">{t('editors.actions.noJavascriptActions')}</p>
          ) : null}
          {draft.permissionMode === 'javascript_action' ? (
            <Field
              label={t('editors.actions.permissionJavascriptAction')}
              required
              error={errorAt(errors, 'permission/javascriptActionId')}
            >
              <select
                value={draft.permissionJavascriptActionId}
                onChange={(e) => set({ permissionJavascriptActionId: e.target.value })}
              >
                <option value="">{t('editors.actions.chooseJavascriptAction')}</option>
                {(javascriptActions.data ?? []).map((action) => (
                  <option key={action.id} value={action.id}>
                    {action.name} ({action.id})
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
          {draft.permissionMode === 'restricted' ? (
            <>
              <Field label={t('editors.actions.permissionUsers')} hint={t('editors.actions.commaSeparated')}>
                <input
                  value={draft.permissionUsers}
                  onChange={(e) => set({ permissionUsers: e.target.value })}
                />
              </Field>
              <Field label={t('editors.actions.permissionRoles')} group>
                <div className="choice-list">
                  {roles.map((role) => (
                    <label key={role} className="checkbox">
                      <input
                        type="checkbox"
                        checked={draft.permissionRoles.includes(role)}
                        onChange={(e) =>
                          set({
                            permissionRoles: e.target.checked
                              ? [...draft.permissionRoles, role]
                              : draft.permissionRoles.filter((r) => r !== role),
                          })
                        }
                      />
                      {t(`identity.role.${role}`)}
                    </label>
                  ))}
                </div>
              </Field>
              <Field label={t('editors.actions.permissionGroups')} hint={t('editors.actions.commaSeparated')}>
                <input
                  value={draft.permissionGroups}
                  onChange={(e) => set({ permissionGroups: e.target.value })}
                />
              </Field>
            </>
          ) : null}
        </fieldset>

        <fieldset className="arguments">
          <legend className="field-label">{t('editors.actions.review')}</legend>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={draft.reviewRequired}
              onChange={(e) => set({ reviewRequired: e.target.checked })}
            />
            {t('editors.actions.reviewRequired')}
          </label>
          {draft.reviewRequired ? (
            <Field label={t('editors.actions.reviewExpires')} error={errorAt(errors, 'review')}>
              <input
                type="number"
                min={5}
                value={draft.reviewExpiresInMinutes}
                onChange={(e) => set({ reviewExpiresInMinutes: e.target.value })}
              />
            </Field>
          ) : null}
        </fieldset>

        <Field
          label={t('editors.actions.effect')}
          hint={t('editors.actions.effectHint')}
          error={errorAt(errors, 'effect')}
        >
          <select
            value={draft.effect}
            onChange={(e) => set({ effect: e.target.value as ActionDraft['effect'] })}
          >
            <option value="">
              {t('editors.actions.effectAuto', {
                effect: t(
                  `effect.${defaultEffect({ ...draft.rest, kind: draft.kind, statements: draft.statements, method: draft.method } as never)}`,
                ),
              })}
            </option>
            <option value="reads">{t('effect.reads')}</option>
            <option value="changes">{t('effect.changes')}</option>
          </select>
        </Field>

        <Field label={t('editors.actions.changeMessage')}>
          <input value={draft.changeMessage} onChange={(e) => set({ changeMessage: e.target.value })} />
        </Field>
        {leftOver.length ? (
          <div className="error-banner" role="alert">
            {leftOver.join(' ')}
          </div>
        ) : null}
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={saving}>
            {t('editors.actions.save')}
          </Button>
        </div>
      </form>
      <Dialog
        open={Boolean(copy)}
        title={t('editors.actions.copyTitle', { id: actionId ?? '' })}
        confirmLabel={t('editors.actions.copy')}
        onConfirm={() => void makeCopy()}
        onCancel={() => setCopy(undefined)}
      >
        <Field label={t('editors.actions.copyId')} required>
          <input
            className="mono"
            value={copy?.id ?? ''}
            onChange={(e) => setCopy((c) => c && { ...c, id: e.target.value })}
          />
        </Field>
        <Field label={t('editors.actions.copyName')}>
          <input
            value={copy?.name ?? ''}
            onChange={(e) => setCopy((c) => c && { ...c, name: e.target.value })}
          />
        </Field>
      </Dialog>
    </section>
  );
}
