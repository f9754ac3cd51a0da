/**
 * Variables and secrets of the current environment. Variable values are shown and editable;
 * secrets are write-only: only their names and when they changed are listed, and a new value is
 * typed into a password field that is cleared after saving.
 */
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client.ts';
import { errorAt, pointerErrors } from '../../api/field-errors.ts';
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
import { formatTime } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { editorPaths } from './api.ts';

export function VariablesScreen() {
  const t = useT();
  const workspace = useWorkspace();
  return (
    <section className="screen" aria-labelledby="variables-title">
      <h1 id="variables-title">
        {t('editors.variables.title', {
          environment: workspace.environment?.name ?? workspace.environmentId,
        })}
      </h1>
      <ValueList kind="variables" />
      <ValueList kind="secrets" />
    </section>
  );
}

function ValueList({ kind }: { kind: 'variables' | 'secrets' }) {
  const t = useT();
  const toast = useToast();
  const { language } = useLanguage();
  const { projectId, environmentId } = useWorkspace();
  const listPath = editorPaths[kind](projectId, environmentId);
  const itemPath = (name: string) =>
    kind === 'variables'
      ? editorPaths.variable(projectId, environmentId, name)
      : editorPaths.secret(projectId, environmentId, name);
  const list = useAsync(
    () => api.get<{ data: { name: string; value?: string; updatedAt?: string }[] }>(listPath),
    [listPath],
  );
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>();
  const [saving, setSaving] = useState(false);
  const secret = kind === 'secrets';

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setErrors({});
    setFailure(undefined);
    try {
      await api.put(itemPath(name), { value });
      toast(t(`editors.${kind}.saved`, { name }));
      setName('');
      setValue('');
      list.reload();
    } catch (error) {
      setFailure(error);
      setErrors(pointerErrors(error));
    } finally {
      setSaving(false);
    }
  };

  const deletion = useConfirmation(async (itemName: string) => {
    await api.del(itemPath(itemName));
    toast(t('editors.deleted', { name: itemName }));
    list.reload();
  }, setFailure);

  return (
    <section className="value-list" aria-labelledby={`${kind}-heading`}>
      <h2 id={`${kind}-heading`} className="section-title">
        {t(`editors.${kind}.heading`)}
      </h2>
      {secret ? <p className="muted small">{t('editors.secrets.writeOnly')}</p> : null}
      <ErrorBanner error={list.error ?? (Object.keys(errors).length ? undefined : failure)} />
      <ListTable
        label={t(`editors.${kind}.heading`)}
        columns={[t('editors.name'), secret ? t('editors.secrets.updatedAt') : t('editors.variables.value')]}
        rowActions
        items={list.data?.data}
        empty={<EmptyState title={t(`editors.${kind}.none`)} />}
        row={(item) => (
          <tr key={item.name}>
            <td className="mono">{item.name}</td>
            <td className={secret ? '' : 'mono'}>
              {secret ? formatTime(item.updatedAt, language) : item.value}
            </td>
            <td>
              <Button
                className="btn-small"
                onClick={() => {
                  setName(item.name);
                  setValue(secret ? '' : (item.value ?? ''));
                }}
              >
                {secret ? t('editors.secrets.replace') : t('editors.edit')}
              </Button>{' '}
              <Button className="btn-small" variant="danger" onClick={() => deletion.ask(item.name)}>
                {t('editors.delete')}
              </Button>
            </td>
          </tr>
        )}
      />
      <form className="inline-fields" onSubmit={save} noValidate aria-label={t(`editors.${kind}.set`)}>
        <Field label={t('editors.name')} required error={errorAt(errors, 'name')}>
          <input className="mono" value={name} onChange={(event) => setName(event.target.value)} />
        </Field>
        <Field label={t(`editors.${kind}.valueLabel`)} required error={errorAt(errors, 'value')}>
          <input
            type={secret ? 'password' : 'text'}
            autoComplete={secret ? 'new-password' : 'off'}
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
        </Field>
        <Button type="submit" variant="primary" busy={saving} disabled={!name}>
          {t(`editors.${kind}.set`)}
        </Button>
      </form>
      <Dialog
        {...deletion.dialog}
        title={t('editors.deleteTitle', { name: deletion.subject ?? '' })}
        danger
        confirmLabel={t('editors.delete')}
      />
    </section>
  );
}
