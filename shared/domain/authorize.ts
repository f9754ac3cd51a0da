/**
 * Resolves what a principal asks to run and checks that they may. Reads run in
 * parallel; the membership decides before anything else is revealed: a caller
 * outside the project learns only whether the project exists. Then the
 * environment's version of the action is chosen and its own permission checked.
 */
import { isProtectedEnvironment, nothingPublished } from './environments.ts';
import { DoguError, notFound } from './errors.ts';
import { resolveMembership } from './manage/resolve-membership.ts';
import type { Action, Environment, Membership, Principal, Project } from './model.ts';
import type { Store } from './ports.ts';
import { requireRight } from './rights.ts';
import type { Role } from './roles.ts';

export interface ActionTarget {
  project: Project;
  environment: Environment;
  /** The version the environment runs (published there; else the latest, unless it is protected). */
  action: Action;
  membership: Membership;
}

export interface RunContext {
  /** Set when another action calls this one (JavaScript actions). */
  callerActionId?: string;
  /** Run this version rather than the environment's (an approved review request). */
  version?: number;
}

export async function resolveExecutableAction(
  store: Store,
  principal: Principal,
  ids: { projectId: string; environmentId: string; actionId: string },
  context: RunContext = {},
): Promise<ActionTarget> {
  const [membership, project, environment, head, publication] = await Promise.all([
    resolveMembership(store, ids.projectId, principal.id),
    store.getProject(ids.projectId),
    store.getEnvironment(ids.projectId, ids.environmentId),
    store.getAction(ids.projectId, ids.actionId),
    store.actionVersions.getPublication(ids.projectId, ids.actionId, ids.environmentId),
  ]);
  if (!project) throw notFound('Project', ids.projectId);
  requireRight(membership, ids.projectId, 'execute');
  if (!environment) throw notFound('Environment', ids.environmentId);
  if (!head) throw notFound('Action', ids.actionId);
  const version = context.version ?? publication?.version;
  if (version === undefined && isProtectedEnvironment(environment)) {
    throw nothingPublished('action', head.id, environment.id, head.version);
  }
  const action = await versionToRun(store, head, version);
  checkActionPermission(action, principal, membership!, context);
  return { project, environment, action, membership: membership! };
}

/**
 * The version of an action an environment runs: the one published there, else the latest — except in a
 * protected environment, where nothing published means nothing runs (409). Every path that runs an
 * action (API, console, views, cron, reservations, batches, jobs, scripts) comes through here or
 * `resolveExecutableAction`.
 */
export async function actionForEnvironment(
  store: Store,
  head: Action,
  environmentId: string,
): Promise<Action> {
  const [environment, publication] = await Promise.all([
    store.getEnvironment(head.projectId, environmentId),
    store.actionVersions.getPublication(head.projectId, head.id, environmentId),
  ]);
  if (!environment) throw notFound('Environment', environmentId);
  if (!publication && isProtectedEnvironment(environment)) {
    throw nothingPublished('action', head.id, environmentId, head.version);
  }
  return versionToRun(store, head, publication?.version);
}

async function versionToRun(store: Store, head: Action, version: number | undefined): Promise<Action> {
  if (version === undefined || version === head.version) return head;
  const stored = await store.actionVersions.getVersion(head.projectId, head.id, version);
  if (!stored) {
    throw new DoguError(
      'state_conflict',
      `Version ${version} of action '${head.id}' is not recorded; publish another version.`,
    );
  }
  return {
    ...stored.definition,
    projectId: head.projectId,
    version,
    createdAt: head.createdAt,
    updatedAt: stored.createdAt,
  } as Action;
}

/** Spec 2.1: everyone by default; restricted to users, roles or groups; or only from a JavaScript action. */
export function checkActionPermission(
  action: Action,
  principal: Principal,
  membership: Membership & { groups?: string[]; roles?: Role[] },
  context: RunContext,
): void {
  const permission = action.permission;
  if (!permission || permission.mode === 'everyone') return;
  if (permission.mode === 'javascript_action') {
    if (context.callerActionId && context.callerActionId === permission.javascriptActionId) return;
    throw new DoguError(
      'forbidden',
      `Action '${action.id}' can only be run from the JavaScript action '${permission.javascriptActionId}'.`,
    );
  }
  const allowed =
    (permission.users ?? []).some(
      (u) => u === principal.id || u.toLowerCase() === principal.email.toLowerCase(),
    ) ||
    (permission.roles ?? []).some((role) => (membership.roles ?? [membership.role]).includes(role)) ||
    (permission.groups ?? []).some((g) => membership.groups?.includes(g));
  if (!allowed) {
    throw new DoguError(
      'forbidden',
      `Action '${action.id}' is restricted: you are not among the users, roles or groups allowed to run it.`,
    );
  }
}
