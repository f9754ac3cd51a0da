/**
 * Project settings → allowed hosts (docs/views.md "Allowed hosts", decision 0155): the hosts this
 * project's views may load images and media from and open without asking the viewer. One host per
 * line; saving replaces the list. Whoever lacks `manage_project` sees the list read-only with the
 * reason (decision 0175: the project answer's `access`); the server checks each entry and names a
 * bad one.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { api, pathOf } from '../../api/client.ts';
import { errorAt, pointerErrors } from '../../api/field-errors.ts';
import type { Project } from '../../api/types.ts';
import type { ProjectAccess } from '../../app/project-access.ts';
import { useWorkspace } from '../../app/workspace.tsx';
import { Button, ErrorBanner, Field, useAsync, useToast } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';

const projectPath = (projectId: string) => pathOf`/api/v1/projects/${projectId}`;
const settingsPath = (projectId: string) => pathOf`/api/v1/projects/${projectId}/settings`;

/** The lines of the box as entries: blank lines dropped. */
export const hostsIn = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

export function AllowedHostsScreen() {
  const t = useT();
  const toast = useToast();
  const { projectId } = useWorkspace();
  const loaded = useAsync(
    () => api.get<Project & { access?: ProjectAccess }>(projectPath(projectId)),
    [projectId],
  );
  // One read gives the list and the caller's rights; undefined while it loads.
  const mayManage = loaded.data ? (loaded.data.access?.rights ?? []).includes('manage_project') : undefined;
  const roleNames = (loaded.data?.access?.roles ?? []).map((role) => t(`identity.role.${role}`)).join(', ');
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (loaded.data) setText((loaded.data.allowedHosts ?? []).join('\n'));
  }, [loaded.data]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setErrors({});
    setFailure(undefined);
    try {
      const saved = await api.put<Project>(settingsPath(projectId), { allowedHosts: hostsIn(text) });
      setText((saved.allowedHosts ?? []).join('\n'));
      toast(t('editors.allowedHosts.saved'));
    } catch (error) {
      setFailure(error);
      setErrors(pointerErrors(error));
    } finally {
      setSaving(false);
    }
  };
  const fieldError = errorAt(errors, 'allowedHosts');

  return (
    <section className="screen" aria-labelledby="allowed-hosts-title">
      <div className="screen-header">
        <h1 id="allowed-hosts-title">{t('editors.allowedHosts.title')}</h1>
      </div>
      <p className="hint">{t('editors.allowedHosts.intro')}</p>
      {mayManage === false ? (
        <p className="notice notice-info" role="note">
          {t('editors.allowedHosts.readOnly', { roles: roleNames || '—' })}
        </p>
      ) : null}
      <ErrorBanner error={loaded.error ?? (fieldError ? undefined : failure)} />
      <form onSubmit={save} noValidate aria-label={t('editors.allowedHosts.title')}>
        <Field
          label={t('editors.allowedHosts.hosts')}
          hint={t('editors.allowedHosts.hint')}
          error={fieldError}
        >
          <textarea
            className="mono"
            rows={8}
            value={text}
            disabled={!loaded.data}
            readOnly={mayManage === false}
            onChange={(event) => setText(event.target.value)}
            spellCheck={false}
          />
        </Field>
        {mayManage === false ? null : (
          <Button type="submit" variant="primary" busy={saving} disabled={!mayManage}>
            {t('editors.allowedHosts.save')}
          </Button>
        )}
      </form>
    </section>
  );
}
