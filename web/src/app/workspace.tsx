/**
 * The project and environment the console is looking at (from the URL), with the lists the
 * switchers offer. Screens read names from here instead of loading them again.
 */
import { createContext, type ReactNode, useContext } from 'react';
import type { Environment, Project } from '../api/types.ts';

export interface Workspace {
  projectId: string;
  environmentId: string;
  projects: Project[];
  environments: Environment[];
  project: Project | undefined;
  environment: Environment | undefined;
  /** `/p/<project>/e/<environment>` + `path`: links inside the current workspace. */
  href(path: string): string;
  /** Loads `environments` again after a screen changed one (its protection, its name). */
  reloadEnvironments?(): void;
}

const WorkspaceContext = createContext<Workspace | undefined>(undefined);

export function WorkspaceProvider({ value, children }: { value: Workspace; children: ReactNode }) {
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}

export function useWorkspace(): Workspace {
  const value = useContext(WorkspaceContext);
  if (!value) throw new Error('useWorkspace is used outside a project screen.');
  return value;
}

const lastKey = 'dogu.workspace';

export function rememberWorkspace(projectId: string, environmentId: string): void {
  try {
    localStorage.setItem(lastKey, JSON.stringify({ projectId, environmentId }));
  } catch {
    // Only a convenience for the next visit.
  }
}

export function lastWorkspace(): { projectId?: string; environmentId?: string } {
  try {
    return JSON.parse(localStorage.getItem(lastKey) ?? '{}') as {
      projectId?: string;
      environmentId?: string;
    };
  } catch {
    return {};
  }
}

export const workspaceHref = (projectId: string, environmentId: string, path = '') =>
  `/p/${encodeURIComponent(projectId)}/e/${encodeURIComponent(environmentId)}${path}`;
