/**
 * Data sources: the list, a form to add or edit one with its connection per environment, and
 * delete after a confirmation. Passwords are write-only: the API never returns them, so an
 * empty password field keeps the stored one.
 */
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client.ts';
import { errorAt, pointerErrors, unclaimedErrors } from '../../api/field-errors.ts';
import { useWorkspace } from '../../app/workspace.tsx';
import {
  Button,
  Dialog,
  EmptyState,
  ErrorBanner,
  Field,
  ListTable,
  Tabs,
  useAsync,
  useConfirmation,
  useToast,
} from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { type DataSource, editorPaths } from './api.ts';

type Draft = Omit<DataSource, 'environments'> & {
  environments: Record<string, Record<string, string | boolean>>;
};

const emptyDraft = (): Draft => ({ id: '', name: '', kind: 'postgresql', environments: {} });

function draftOf(source: DataSource): Draft {
  const environments: Draft['environments'] = {};
  for (const [environment, connection] of Object.entries(source.environments)) {
    environments[environment] = Object.fromEntries(
      Object.entries(connection)
        .filter(([key]) => key !== 'headers')
        .map(([key, value]) => [key, typeof value === 'boolean' ? value : String(value ?? '')]),
    );
  }
  return { ...source, environments };
}

/** The PUT body: numbers as numbers, empty fields left out (an empty password keeps the stored one). */
export function dataSourceBody(draft: Draft, original: DataSource | undefined) {
  const environments: Record<string, Record<string, unknown>> = {};
  for (const [environment, fields] of Object.entries(draft.environments)) {
    const connection: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(fields)) {
      if (value === '' || value === undefined) continue;
      connection[key] = ['port', 'statementTimeoutMs', 'timeoutMs'].includes(key) ? Number(value) : value;
    }
    const headers = original?.environments[environment]?.headers;
    if (draft.kind === 'http' && headers) connection.headers = headers;
    if (Object.keys(connection).length) environments[environment] = connection;
  }
  const {
    managedBy: _m,
    updatedAt: _u,
    ...rest
  } = draft as Draft & { createdAt?: string; projectId?: string };
  const {
    createdAt: _c,
    projectId: _p,
    ...clean
  } = rest as typeof rest & { createdAt?: string; projectId?: string };
  return { ...clean, description: draft.description || undefined, environments };
}

const sqlFields = ['host', 'port', 'database', 'user', 'password', 'statementTimeoutMs'] as const;
const httpFields = ['url', 'timeoutMs'] as const;

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
  const [tab, setTab] = useState(workspace.environmentId);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>();
  const [saving, setSaving] = useState(false);

  const environments = workspace.environments.length
    ? workspace.environments
    : [{ id: workspace.environmentId, name: workspace.environmentId, projectId }];

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    setSaving(true);
    setErrors({});
    setFailure(undefined);
    try {
      await api.put(
        editorPaths.dataSource(projectId, editing.draft.id),
        dataSourceBody(editing.draft, editing.original),
      );
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
  const setConnection = (environment: string, key: string, value: string | boolean) =>
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
  const leftOver = unclaimedErrors(errors, ['id', 'name', 'kind', 'description', 'environments']);

  return (
    <section className="screen" aria-labelledby="data-sources-title">
      <div className="screen-header">
        <h1 id="data-sources-title">{t('editors.dataSources.title')}</h1>
        <div className="header-spacer" />
        <Button variant="primary" onClick={() => setEditing({ draft: emptyDraft() })}>
          {t('editors.dataSources.add')}
        </Button>
      </div>
      <ErrorBanner
        error={list.error ?? (leftOver.length || !Object.keys(errors).length ? failure : undefined)}
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
                onChange={(event) =>
                  setDraft({ kind: event.target.value as Draft['kind'], environments: {} })
                }
              >
                <option value="postgresql">PostgreSQL</option>
                <option value="mysql">MySQL</option>
                <option value="http">HTTP API</option>
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
          <Tabs
            label={t('editors.dataSources.perEnvironment')}
            active={tab}
            onChange={setTab}
            tabs={environments.map((environment) => ({
              id: environment.id,
              label: environment.name,
              content: (
                <div className="param-grid">
                  {(draft.kind === 'http' ? httpFields : sqlFields).map((key) => (
                    <Field
                      key={key}
                      label={t(`editors.dataSources.field.${key}`)}
                      error={errorAt(errors, `environments/${environment.id}/${key}`)}
                      hint={key === 'password' ? t('editors.dataSources.passwordHint') : undefined}
                    >
                      <input
                        type={
                          key === 'password'
                            ? 'password'
                            : ['port', 'statementTimeoutMs', 'timeoutMs'].includes(key)
                              ? 'number'
                              : 'text'
                        }
                        autoComplete={key === 'password' ? 'new-password' : 'off'}
                        value={String(draft.environments[environment.id]?.[key] ?? '')}
                        onChange={(event) => setConnection(environment.id, key, event.target.value)}
                      />
                    </Field>
                  ))}
                  {draft.kind !== 'http' ? (
                    <label className="checkbox">
                      <input
                        type="checkbox"
                        checked={draft.environments[environment.id]?.ssl === true}
                        onChange={(event) => setConnection(environment.id, 'ssl', event.target.checked)}
                      />
                      {t('editors.dataSources.field.ssl')}
                    </label>
                  ) : null}
                </div>
              ),
            }))}
          />
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
            <td>{source.kind}</td>
            <td>{Object.keys(source.environments).join(', ')}</td>
            <td>
              <Button
                className="btn-small"
                onClick={() => setEditing({ draft: draftOf(source), original: source })}
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
