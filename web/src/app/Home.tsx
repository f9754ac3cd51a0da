/**
 * `/` and `/p/:projectId`: opens the last project and environment used (or the first ones) at the
 * action list, so a bookmark of the console's root always lands somewhere useful.
 */
import { useEffect } from 'react';
import { api } from '../api/client.ts';
import { apiPaths } from '../api/paths.ts';
import type { Environment, ListOf, Project } from '../api/types.ts';
import { EmptyState, ErrorBanner, useAsync } from '../components/index.ts';
import { useT } from '../i18n/index.tsx';
import { CreateProjectForm } from './CreateProjectForm.tsx';
import { navigate } from './router.tsx';
import { lastWorkspace, workspaceHref } from './workspace.tsx';

interface Target {
  projectId?: string;
  environmentId?: string;
}

async function chooseWorkspace(wantedProject: string | undefined): Promise<Target> {
  const last = lastWorkspace();
  const projects = (await api.get<ListOf<Project>>(apiPaths.projects)).data;
  const project =
    projects.find((p) => p.id === wantedProject) ??
    (wantedProject ? undefined : (projects.find((p) => p.id === last.projectId) ?? projects[0]));
  if (!project) return {};
  const environments = (await api.get<ListOf<Environment>>(apiPaths.environments(project.id))).data;
  const environment =
    (project.id === last.projectId ? environments.find((e) => e.id === last.environmentId) : undefined) ??
    environments[0];
  return { projectId: project.id, ...(environment ? { environmentId: environment.id } : {}) };
}

export function Home({ projectId }: { projectId?: string }) {
  const t = useT();
  const target = useAsync(() => chooseWorkspace(projectId), [projectId]);
  const { projectId: chosenProject, environmentId } = target.data ?? {};
  useEffect(() => {
    if (chosenProject && environmentId) {
      navigate(workspaceHref(chosenProject, environmentId, '/actions'), { replace: true });
    }
  }, [chosenProject, environmentId]);

  if (target.error) {
    return (
      <main className="gate">
        <ErrorBanner error={target.error} />
      </main>
    );
  }
  if (target.loading || (chosenProject && environmentId)) {
    return (
      <main className="gate" aria-busy="true">
        <p className="muted">{t('common.loading')}</p>
      </main>
    );
  }
  return (
    <main className="gate">
      <EmptyState
        heading="h1"
        title={t(
          chosenProject ? 'home.noEnvironments' : projectId ? 'home.noSuchProject' : 'home.noProjects',
        )}
      >
        {t('home.askAdmin')}
      </EmptyState>
      <CreateProjectForm {...(chosenProject ? { existing: chosenProject } : {})} />
    </main>
  );
}
