/**
 * Resolves what a principal asks to run and checks that they may. Reads run in
 * parallel; the membership decides before anything else is revealed: a caller
 * outside the project learns only whether the project exists. Spec 2.1: by
 * default every member may execute (restricted actions come with governance).
 */
import { notFound } from './errors.ts';
import type { Action, Environment, Membership, Principal, Project } from './model.ts';
import type { DefinitionReader } from './ports.ts';
import { requireRight } from './rights.ts';

export interface ActionTarget {
  project: Project;
  environment: Environment;
  action: Action;
  membership: Membership;
}

export async function resolveExecutableAction(
  definitions: DefinitionReader,
  principal: Principal,
  ids: { projectId: string; environmentId: string; actionId: string },
): Promise<ActionTarget> {
  const [membership, project, environment, action] = await Promise.all([
    definitions.getMembership(ids.projectId, principal.id),
    definitions.getProject(ids.projectId),
    definitions.getEnvironment(ids.projectId, ids.environmentId),
    definitions.getAction(ids.projectId, ids.actionId),
  ]);
  if (!project) throw notFound('Project', ids.projectId);
  requireRight(membership, ids.projectId, 'execute');
  if (!environment) throw notFound('Environment', ids.environmentId);
  if (!action) throw notFound('Action', ids.actionId);
  return { project, environment, action, membership: membership! };
}
