/**
 * What the signed-in principal may do in a project, as the server decides it: `GET
 * /api/v1/projects/{id}` answers `access` (the roles held directly and through user groups, and the
 * union of their rights; shared/domain/rights.ts). Screens ask this instead of guessing from the
 * direct role the projects list carries, which misses rights granted by a group.
 */
import type { Right } from '../../../shared/domain/rights.ts';
import { api, pathOf } from '../api/client.ts';
import type { Role } from '../api/types.ts';
import { useAsync } from '../components/index.ts';

export interface ProjectAccess {
  /** The highest role held. */
  role: Role;
  /** Every role held, highest first. */
  roles: Role[];
  rights: Right[];
}

export const projectPath = (projectId: string) => pathOf`/api/v1/projects/${projectId}`;

export interface AccessState {
  access: ProjectAccess | undefined;
  /**
   * Whether the principal holds `right`: undefined until known. A failed load counts as no (the
   * server decides again on every call, so a wrong no only hides a button).
   */
  may(right: Right): boolean | undefined;
  reload(): void;
}

export function useProjectAccess(projectId: string): AccessState {
  const loaded = useAsync(
    () => api.get<{ access: ProjectAccess }>(projectPath(projectId)).then((project) => project.access),
    [projectId],
  );
  return {
    access: loaded.data,
    may: (right) => (loaded.data ? loaded.data.rights.includes(right) : loaded.error ? false : undefined),
    reload: loaded.reload,
  };
}
