/** Loads the caller's membership of a project and checks one right, 404 for an unknown project. */
import { notFound } from '../errors.ts';
import type { Principal } from '../model.ts';
import type { DefinitionReader, Store } from '../ports.ts';
import { type Right, requireRight } from '../rights.ts';
import { type ResolvedMembership, resolveMembership } from './resolve-membership.ts';

export async function authorize(
  definitions: Pick<Store, 'getMembership' | 'listUserGroupsOfPrincipal' | 'getProject'>,
  principal: Principal,
  projectId: string,
  right: Right,
): Promise<ResolvedMembership> {
  const [membership, project] = await Promise.all([
    resolveMembership(definitions, projectId, principal.id),
    definitions.getProject(projectId),
  ]);
  if (!project) throw notFound('Project', projectId);
  return requireRight(membership, projectId, right);
}

export async function requireEnvironment(
  definitions: DefinitionReader,
  projectId: string,
  environmentId: string,
) {
  const environment = await definitions.getEnvironment(projectId, environmentId);
  if (!environment) throw notFound('Environment', environmentId);
  return environment;
}
