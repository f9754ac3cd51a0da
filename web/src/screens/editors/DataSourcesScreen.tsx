/**
 * Data sources: the list, a form to add or edit one with its connection per environment (rendered
 * from the kind's form descriptor, GET /api/v1/connector-kinds), test connection, and delete after
 * a confirmation. Secret fields are write-only: an empty input keeps the stored value.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import { errorAt, pointerErrors, unclaimedErrors } from '../../api/field-errors.ts';
import { navigate, useRoute } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import {
  Button,
  Dialog,
  EmptyState,
  ErrorBanner,
  Field,
  ListTable,
  useAsync,
  useConfirmation,
  useToast,
} from '../../components/index.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { type DataSource, editorPaths } from './api.ts';
import { type ConnectionDraft, ConnectionFields, connectionBody } from './ConnectionFields.tsx';
import {
  type ConnectionTestResult,
  type ConnectorKind,
  labelIn,
  loadConnectorKinds,
  type OAuthConnectionView,
  presenceField,
  testConnectionPath,
} from './connector-kinds.ts';
import { FileVersionsPanel } from './FileVersionsPanel.tsx';
import { OAuthConnectionPanel } from './OAuthConnectionPanel.tsx';

/** A test's state per environment: running, its answer, or nothing filled in to test. */
type TestState = ConnectionTestResult | 'running' | 'empty';
type AuthActionDraft = { actionId: string; tokenPath: string; cacheSeconds: string };
type Draft = Omit<DataSource, 'environments' | 'authAction'> & {
  environments: Record<string, ConnectionDraft>;
  authAction: AuthActionDraft;
};

const emptyDraft = (kind: string): Draft => ({
  id: '',
  name: '',
  kind,
  environments: {},
  authAction: { actionId: '', tokenPath: '', cacheSeconds: '' },
});

function draftOf(source: DataSource): Draft {
  const environments: Draft['environments'] = {};
  for (const [environment, connection] of Object.entries(source.environments)) {
    environments[environment] = Object.fromEntries(
      Object.entries(connection).map(([key, value]) => [
        key,
        typeof value === 'boolean' || Array.isArray(value) ? value : String(value ?? ''),
      ]),
    );
  }
  const auth = source.authAction;
  return {
    ...source,
    environments,
    authAction: {
      actionId: auth?.actionId ?? '',
      tokenPath: auth?.tokenPath ?? '',
      cacheSeconds: auth?.cacheSeconds === undefined ? '' : String(auth.cacheSeconds),
    },
  };
}

/** The PUT body: each environment shaped by the kind's fields (an empty password keeps the stored one). */
export function dataSourceBody(draft: Draft, kind: ConnectorKind) {
  const environments: Record<string, Record<string, unknown>> = {};
  for (const [environment, values] of Object.entries(draft.environments)) {
    const connection = connectionBody(kind, values);
    if (Object.keys(connection).length) environments[environment] = connection;
  }
  const { actionId, tokenPath, cacheSeconds } = draft.authAction;
  return {
    id: draft.id,
    name: draft.name,
    kind: draft.kind,
    description: draft.description || undefined,
    environments,
    ...(kind.authAction && actionId
      ? {
          authAction: {
            actionId,
            ...(tokenPath ? { tokenPath } : {}),
            ...(cacheSeconds ? { cacheSeconds: Number(cacheSeconds) } : {}),
          },
        }
      : {}),
  };
}

/** Body members the form shows beside their inputs: the banner above the form leaves them out. */
const claimedKeys = ['id', 'name', 'kind', 'description', 'environments', 'authAction'];

export function DataSourcesScreen() {
  const t = useT();
  const toast = useToast();
  const workspace = useWorkspace();
  const { projectId } = workspace;
  const list = useAsync(
    () => api.get<{ data: DataSource[] }>(editorPaths.dataSources(projectId)),
    [projectId],
  );
  const [editing, setEditing] = useState<{ draft: Draft; original?: DataSource }>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>();
  const [saving, setSaving] = useState(false);
  const [tests, setTests] = useState<Record<string, TestState>>({});
  const kinds = useAsync(loadConnectorKinds, []);
  const { language } = useLanguage();
  const kindOf = (name: string | undefined) => kinds.data?.data.find((k) => k.kind === name);
  const route = useRoute();
  const [oauthOutcome, setOauthOutcome] = useState<string>();

  // Back from an OAuth provider (…/data-sources?dataSource=…&oauth=connected|oauthError=…): open that data source.
  const returnedFor = route.query.get('dataSource');
  useEffect(() => {
    if (!returnedFor || !list.data) return;
    const source = list.data.data.find((d) => d.id === returnedFor);
    const error = route.query.get('oauthError');
    if (error) setOauthOutcome(error);
    else if (route.query.get('oauth') === 'connected') toast(t('editors.oauth.connected'));
    if (source) setEditing({ draft: draftOf(source), original: source });
    navigate(window.location.pathname, { replace: true });
  }, [returnedFor, list.data, route.query, toast, t]);

  const reloadOriginal = async (dataSourceId: string) => {
    const fresh = await api.get<DataSource>(editorPaths.dataSource(projectId, dataSourceId));
    setEditing((current) => current && { ...current, original: fresh });
    list.reload();
  };

  const environments = workspace.environments.length
    ? workspace.environments
    : [{ id: workspace.environmentId, name: workspace.environmentId, projectId }];

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const kind = kindOf(editing?.draft.kind);
    if (!editing || !kind) return;
    setFailure(undefined);
    // The id is part of the path: an empty one would reach no route, so it is said here.
    if (!editing.draft.id.trim()) {
      setErrors({ id: t('field.enterId') });
      return;
    }
    setSaving(true);
    setErrors({});
    try {
      await api.put(editorPaths.dataSource(projectId, editing.draft.id), dataSourceBody(editing.draft, kind));
      toast(t('editors.saved', { name: editing.draft.name }));
      setEditing(undefined);
      list.reload();
    } catch (error) {
      setFailure(error);
      setErrors(pointerErrors(error));
    } finally {
      setSaving(false);
    }
  };

  const deletion = useConfirmation(async (source: DataSource) => {
    await api.del(editorPaths.dataSource(projectId, source.id));
    toast(t('editors.deleted', { name: source.name }));
    list.reload();
  }, setFailure);

  const draft = editing?.draft;
  const setDraft = (patch: Partial<Draft>) =>
    setEditing((current) => current && { ...current, draft: { ...current.draft, ...patch } });
  /**
   * Tries one environment: the settings as filled in (before saving; secret fields left empty use
   * the stored ones), or the saved ones when the form still holds exactly those.
   */
  const testConnection = async (environmentId: string) => {
    const kind = kindOf(editing?.draft.kind);
    if (!editing || !kind) return;
    const id = editing.original?.id ?? editing.draft.id.trim();
    if (!id) {
      setErrors({ id: t('editors.dataSources.testNeedsId') });
      return;
    }
    const connection = connectionBody(kind, editing.draft.environments[environmentId] ?? {});
    const savedConnection = editing.original?.environments[environmentId]
      ? connectionBody(kind, draftOf(editing.original).environments[environmentId] ?? {})
      : undefined;
    const unchanged = savedConnection && JSON.stringify(savedConnection) === JSON.stringify(connection);
    if (!unchanged && Object.keys(connection).length === 0) {
      setTests((current) => ({ ...current, [environmentId]: 'empty' }));
      return;
    }
    setTests((current) => ({ ...current, [environmentId]: 'running' }));
    try {
      const result = await api.post<ConnectionTestResult>(
        testConnectionPath(projectId, id, environmentId),
        unchanged ? undefined : { kind: kind.kind, connection },
      );
      setTests((current) => ({ ...current, [environmentId]: result }));
      // A test may find an OAuth grant revoked: show the connection as the server now keeps it.
      if (!result.ok && kind.oauth && editing.original) await reloadOriginal(editing.original.id);
    } catch (error) {
      setTests(({ [environmentId]: _dropped, ...rest }) => rest);
      setFailure(error);
      setErrors(pointerErrors(error, { from: 'connection', to: `environments/${environmentId}` }));
    }
  };
  const setConnection = (environment: string, key: string, value: ConnectionDraft[string]) =>
    setEditing(
      (current) =>
        current && {
          ...current,
          draft: {
            ...current.draft,
            environments: {
              ...current.draft.environments,
              [environment]: { ...(current.draft.environments[environment] ?? {}), [key]: value },
            },
          },
        },
    );
  const leftOver = unclaimedErrors(errors, claimedKeys);
  const kind = kindOf(draft?.kind);

  return (
    <section className="screen" aria-labelledby="data-sources-title">
      <div className="screen-header">
        <h1 id="data-sources-title">{t('editors.dataSources.title')}</h1>
        <div className="header-spacer" />
        <Button
          variant="primary"
          disabled={!kinds.data}
          onClick={() => {
            setTests({});
            setEditing({ draft: emptyDraft(kinds.data?.data[0]?.kind ?? 'postgresql') });
          }}
        >
          {t('editors.dataSources.add')}
        </Button>
      </div>
      {oauthOutcome ? (
        <div className="field-error" role="alert">
          {t('editors.oauth.failed', { message: oauthOutcome })}
        </div>
      ) : null}
      <ErrorBanner
        error={
          list.error ?? kinds.error ?? (leftOver.length || !Object.keys(errors).length ? failure : undefined)
        }
        shownBesideFields={claimedKeys}
      />
      {draft ? (
        <form className="editor-form" onSubmit={save} noValidate aria-label={t('editors.dataSources.form')}>
          <div className="inline-fields">
            <Field label={t('editors.id')} required error={errorAt(errors, 'id')}>
              <input
                className="mono"
                value={draft.id}
                readOnly={Boolean(editing?.original)}
                onChange={(event) => setDraft({ id: event.target.value })}
              />
            </Field>
            <Field label={t('editors.name')} required error={errorAt(errors, 'name')}>
              <input value={draft.name} onChange={(event) => setDraft({ name: event.target.value })} />
            </Field>
            <Field label={t('editors.dataSources.kind')} error={errorAt(errors, 'kind')}>
              <select
                value={draft.kind}
                disabled={Boolean(editing?.original)}
                onChange={(event) => setDraft({ kind: event.target.value, environments: {} })}
              >
                {(kinds.data?.data ?? []).map((k) => (
                  <option key={k.kind} value={k.kind}>
                    {labelIn(k.label, language)}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <Field label={t('editors.description')} error={errorAt(errors, 'description')}>
            <input
              value={draft.description ?? ''}
              onChange={(event) => setDraft({ description: event.target.value })}
            />
          </Field>
          {errorAt(errors, 'environments') &&
          !Object.keys(errors).some((k) => k.startsWith('environments/')) ? (
            <div className="field-error" role="alert">
              {errorAt(errors, 'environments')}
            </div>
          ) : null}
          {/* Every environment in the one form, each with its own test (before or after saving). */}
          {kind
            ? environments.map((environment) => (
                <fieldset className="environment-connection" key={environment.id}>
                  <legend>{t('editors.dataSources.connectionIn', { environment: environment.name })}</legend>
                  {editing?.original?.environments[environment.id] ||
                  Object.keys(draft.environments[environment.id] ?? {}).length ? null : (
                    <p className="muted small">
                      {t('editors.dataSources.unsetEnvironment', { environment: environment.name })}
                    </p>
                  )}
                  <ConnectionFields
                    kind={kind}
                    environmentId={environment.id}
                    values={draft.environments[environment.id] ?? {}}
                    stored={
                      new Set(
                        kind.secretFields.filter(
                          (f) =>
                            (
                              editing?.original?.environments[environment.id] as
                                | Record<string, unknown>
                                | undefined
                            )?.[presenceField(f)] === true,
                        ),
                      )
                    }
                    errors={errors}
                    onChange={(field, value) => setConnection(environment.id, field, value)}
                  />
                  <div className="inline-fields">
                    <Button
                      busy={tests[environment.id] === 'running'}
                      onClick={() => testConnection(environment.id)}
                      aria-describedby={`test-hint-${environment.id}`}
                    >
                      {t('editors.dataSources.test')}
                    </Button>
                    <span className="muted small" id={`test-hint-${environment.id}`}>
                      {t('editors.dataSources.testHint')}
                    </span>
                    <ConnectionTestOutcome result={tests[environment.id]} />
                  </div>
                  {kind.oauth ? (
                    editing?.original?.environments[environment.id] ? (
                      <OAuthConnectionPanel
                        projectId={projectId}
                        dataSourceId={editing.original.id}
                        environmentId={environment.id}
                        connection={
                          (editing.original.environments[environment.id] as { oauth?: OAuthConnectionView })
                            .oauth
                        }
                        onChanged={() => reloadOriginal(editing.original!.id)}
                      />
                    ) : (
                      <p>{t('editors.oauth.saveFirst')}</p>
                    )
                  ) : null}
                  {kind.files && editing?.original ? (
                    <FileVersionsPanel
                      projectId={projectId}
                      dataSourceId={editing.original.id}
                      environmentId={environment.id}
                    />
                  ) : null}
                </fieldset>
              ))
            : null}
          {kind?.authAction ? (
            <fieldset className="inline-fields">
              <legend>{t('editors.dataSources.authAction')}</legend>
              <Field
                label={t('editors.dataSources.authActionId')}
                error={errorAt(errors, 'authAction/actionId')}
              >
                <input
                  className="mono"
                  value={draft.authAction.actionId}
                  onChange={(event) =>
                    setDraft({ authAction: { ...draft.authAction, actionId: event.target.value } })
                  }
                />
              </Field>
              <Field
                label={t('editors.dataSources.tokenPath')}
                error={errorAt(errors, 'authAction/tokenPath')}
              >
                <input
                  className="mono"
                  value={draft.authAction.tokenPath}
                  onChange={(event) =>
                    setDraft({ authAction: { ...draft.authAction, tokenPath: event.target.value } })
                  }
                />
              </Field>
              <Field
                label={t('editors.dataSources.cacheSeconds')}
                error={errorAt(errors, 'authAction/cacheSeconds')}
              >
                <input
                  type="number"
                  value={draft.authAction.cacheSeconds}
                  onChange={(event) =>
                    setDraft({ authAction: { ...draft.authAction, cacheSeconds: event.target.value } })
                  }
                />
              </Field>
            </fieldset>
          ) : null}
          <div className="form-actions">
            <Button type="submit" variant="primary" busy={saving}>
              {t('editors.save')}
            </Button>
            <Button onClick={() => setEditing(undefined)}>{t('common.cancel')}</Button>
          </div>
        </form>
      ) : null}
      <ListTable
        label={t('editors.dataSources.title')}
        columns={[
          t('editors.name'),
          t('editors.id'),
          t('editors.dataSources.kind'),
          t('editors.dataSources.environments'),
        ]}
        rowActions
        items={list.data?.data}
        empty={<EmptyState title={t('editors.dataSources.none')} />}
        row={(source) => (
          <tr key={source.id}>
            <td>{source.name}</td>
            <td className="mono">{source.id}</td>
            <td>{labelIn(kindOf(source.kind)?.label ?? { en: source.kind, ja: source.kind }, language)}</td>
            <td>{Object.keys(source.environments).join(', ')}</td>
            <td>
              <Button
                className="btn-small"
                onClick={() => {
                  setTests({});
                  setEditing({ draft: draftOf(source), original: source });
                }}
              >
                {t('editors.edit')}
              </Button>{' '}
              <Button className="btn-small" variant="danger" onClick={() => deletion.ask(source)}>
                {t('editors.delete')}
              </Button>
            </td>
          </tr>
        )}
      />
      <Dialog
        {...deletion.dialog}
        title={t('editors.dataSources.deleteTitle', { name: deletion.subject?.name ?? '' })}
        danger
        confirmLabel={t('editors.delete')}
      >
        <p>{t('editors.dataSources.deleteDetail')}</p>
      </Dialog>
    </section>
  );
}

function ConnectionTestOutcome({ result }: { result: TestState | undefined }) {
  const t = useT();
  if (!result || result === 'running') return null;
  if (result === 'empty') {
    return (
      <output className="field-error" role="alert">
        {t('editors.dataSources.nothingToTest')}
      </output>
    );
  }
  return result.ok ? (
    <output className="test-ok">{t('editors.dataSources.testOk', { ms: result.durationMs })}</output>
  ) : (
    <output className="field-error" role="alert">
      {t('editors.dataSources.testFailed', { ms: result.durationMs, message: result.error?.message ?? '' })}
    </output>
  );
}
