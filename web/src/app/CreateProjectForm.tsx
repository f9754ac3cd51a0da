/**
 * What a signed-in user can do when no project shows: create one here (any user may; the creator
 * becomes its administrator) with the environments development and production, then open it.
 * The CLI cannot create projects (`dogu apply` fills an existing one), so the page offers this form.
 */
import { type FormEvent, useState } from 'react';
import { api } from '../api/client.ts';
import { errorAt, pointerErrors } from '../api/field-errors.ts';
import { apiPaths } from '../api/paths.ts';
import { Button, ErrorBanner, Field } from '../components/index.ts';
import { useT } from '../i18n/index.tsx';
import { navigate } from './router.tsx';
import { workspaceHref } from './workspace.tsx';

const startingEnvironments = [
  { id: 'development', name: 'Development' },
  { id: 'production', name: 'Production' },
];

/** `existing`: the project exists but has no environment; the form only adds the environments. */
export function CreateProjectForm({ existing }: { existing?: string }) {
  const t = useT();
  const [id, setId] = useState(existing ?? '');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [missingId, setMissingId] = useState(false);
  const errors = pointerErrors(error);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The id is part of the path: an empty one would reach no route at all.
    setMissingId(!id.trim());
    if (!id.trim()) return;
    setBusy(true);
    setError(undefined);
    try {
      const projectId = id.trim();
      if (!existing) {
        await api.put(`${apiPaths.projects}/${encodeURIComponent(projectId)}`, {
          id: projectId,
          name: name.trim() || projectId,
        });
      }
      for (const environment of startingEnvironments) {
        await api.put(`${apiPaths.environments(projectId)}/${environment.id}`, environment);
      }
      navigate(workspaceHref(projectId, 'development', '/actions'));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const idError = missingId ? t('field.enterId') : errorAt(errors, 'id');
  return (
    <form className="create-project" onSubmit={(event) => void submit(event)} noValidate>
      <h2>{t(existing ? 'home.addEnvironments' : 'home.createProject')}</h2>
      <p className="muted">{t(existing ? 'home.addEnvironmentsHint' : 'home.createProjectHint')}</p>
      {existing ? null : (
        <>
          <Field label={t('home.projectId')} required error={idError} hint={t('home.projectIdHint')}>
            <input value={id} onChange={(event) => setId(event.target.value)} autoComplete="off" />
          </Field>
          <Field label={t('home.projectName')} error={errorAt(errors, 'name')}>
            <input value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" />
          </Field>
        </>
      )}
      {error && !idError && !errorAt(errors, 'name') ? <ErrorBanner error={error} /> : null}
      <Button type="submit" variant="primary" busy={busy}>
        {t(existing ? 'home.addEnvironmentsSubmit' : 'home.createProjectSubmit')}
      </Button>
    </form>
  );
}
