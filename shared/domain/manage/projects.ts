/** Projects and their environments. Whoever creates a project is its first administrator. */

import * as z from 'zod';
import { agentSettingsSchema } from '../agents/agent-settings.ts';
import { allowedHostSchema } from '../allowed-host-schema.ts';
import { maxAllowedHosts } from '../allowed-hosts.ts';
import { resourceIdSchema } from '../definitions/data-source.ts';
import { environmentAnswer, isProtectedEnvironment } from '../environments.ts';
import { DoguError, notFound } from '../errors.ts';
import type { Environment, Principal, Project } from '../model.ts';
import { AlreadyExistsError } from '../ports.ts';
import { accessOf } from '../rights.ts';
import { authorize } from './access.ts';
import type { ManageDeps } from './data-sources.ts';

/** Definitions only: neither secret values nor connector engines (docs/decisions/0022). */
type DefinitionDeps = Pick<ManageDeps, 'store' | 'clock'>;

export const projectInputSchema = z.object({ id: resourceIdSchema, name: z.string().min(1).max(200) });
export const environmentInputSchema = z.object({
  id: resourceIdSchema,
  name: z.string().min(1).max(200),
  /** Spec 2.8: usage restricted per environment; service accounts cannot be cron executors there. */
  usageRestricted: z.boolean().optional(),
  /**
   * Only published versions of actions and views run or show here (docs/governance.md). When left
   * out: true for `production`, false for any other id.
   */
  protected: z.boolean().optional(),
});

/** What may change on an existing environment: the id stays. */
export const environmentChangeSchema = environmentInputSchema.omit({ id: true }).partial();

/** The projects the caller is a direct member of, with the caller's role. */
export async function listMyProjects(deps: DefinitionDeps, principal: Principal) {
  const memberships = await deps.store.listMembershipsOfPrincipal(principal.id);
  const projects = await Promise.all(memberships.map((m) => deps.store.getProject(m.projectId)));
  return projects.flatMap((project, i) =>
    project ? [{ ...presentProject(project), role: memberships[i]!.role }] : [],
  );
}

/**
 * Any signed-in user may create a project and becomes its administrator (a
 * company that wants otherwise puts creation behind its IdP groups later).
 */
export async function createProject(
  deps: DefinitionDeps,
  principal: Principal,
  input: z.infer<typeof projectInputSchema>,
): Promise<Project> {
  if (principal.kind !== 'user') throw new DoguError('forbidden', 'Only users can create projects.');
  const project: Project = { ...input, createdAt: deps.clock.now().toISOString() };
  try {
    await deps.store.createProject(project);
  } catch (error) {
    if (error instanceof AlreadyExistsError) {
      throw new DoguError('state_conflict', `A project '${input.id}' exists already; choose another id.`);
    }
    throw error;
  }
  await deps.store.putMembership({ projectId: project.id, principalId: principal.id, role: 'admin' });
  return project;
}

export async function listEnvironments(deps: DefinitionDeps, principal: Principal, projectId: string) {
  await authorize(deps.store, principal, projectId, 'view');
  return (await deps.store.listEnvironments(projectId)).map(environmentAnswer);
}

export async function createEnvironment(
  deps: DefinitionDeps,
  principal: Principal,
  projectId: string,
  input: z.infer<typeof environmentInputSchema>,
): Promise<Environment> {
  await authorize(deps.store, principal, projectId, 'manage_project');
  const environment: Environment = {
    ...input,
    // Stored explicitly, so the record says what it is whatever the default becomes.
    protected: isProtectedEnvironment(input),
    projectId,
    createdAt: deps.clock.now().toISOString(),
  };
  try {
    await deps.store.createEnvironment(environment);
  } catch (error) {
    if (error instanceof AlreadyExistsError) {
      throw new DoguError(
        'state_conflict',
        `Environment '${input.id}' exists already in project '${projectId}'.`,
      );
    }
    throw error;
  }
  return environment;
}

/** Renames an environment or changes its settings (protection, usage restriction). */
export async function updateEnvironment(
  deps: DefinitionDeps,
  principal: Principal,
  projectId: string,
  environmentId: string,
  change: z.infer<typeof environmentChangeSchema>,
): Promise<Environment> {
  await authorize(deps.store, principal, projectId, 'manage_project');
  const current = await deps.store.getEnvironment(projectId, environmentId);
  if (!current) throw notFound('Environment', environmentId);
  const updated: Environment = { ...environmentAnswer(current), ...definedOnly(change) };
  await deps.store.updateEnvironment(updated);
  return updated;
}

const definedOnly = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

export const projectSettingsSchema = z
  .object({
    /** Spec 5.1: the public API accepts external ID tokens directly as Bearer. */
    directIdTokens: z.boolean().optional(),
    /**
     * Hosts the project's views may load images and media from and navigate to without asking
     * (docs/views.md "Allowed hosts"); the whole list, replacing the one stored.
     */
    allowedHosts: z
      .array(allowedHostSchema)
      .max(maxAllowedHosts, { error: `may hold at most ${maxAllowedHosts} hosts` })
      .optional(),
    /** What AI agents may see and do over MCP (docs/agents.md); the whole object, replacing the one stored. */
    agents: agentSettingsSchema.optional(),
  })
  .refine(
    (settings) =>
      settings.directIdTokens !== undefined ||
      settings.allowedHosts !== undefined ||
      settings.agents !== undefined,
    { error: 'Give at least one setting: directIdTokens, allowedHosts or agents.' },
  );

export async function putProjectSettings(
  deps: DefinitionDeps,
  principal: Principal,
  projectId: string,
  settings: z.infer<typeof projectSettingsSchema>,
): Promise<Project> {
  await authorize(deps.store, principal, projectId, 'manage_project');
  const project = await deps.store.getProject(projectId);
  if (!project) throw notFound('Project', projectId);
  const updated: Project = { ...project, ...definedOnly(settings) };
  if (settings.allowedHosts) updated.allowedHosts = [...new Set(settings.allowedHosts)];
  await deps.store.updateProject(updated);
  return presentProject(updated);
}

/** The project, with what the caller may do in it (roles through user groups included). */
export async function getProject(deps: DefinitionDeps, principal: Principal, projectId: string) {
  const membership = await authorize(deps.store, principal, projectId, 'view');
  const project = await deps.store.getProject(projectId);
  if (!project) throw notFound('Project', projectId);
  return { ...presentProject(project), access: accessOf(membership) };
}

/** A project as answered: its bridges have their own routes (…/bridges). */
function presentProject(project: Project): Omit<Project, 'bridges'> {
  const { bridges: _bridges, ...shown } = project;
  return shown;
}
