/**
 * The actions an agent may see in one environment (docs/agents.md): exactly those its principal could
 * run there (membership with `execute`, the action's own permission, the version the environment runs —
 * published only, in a protected one), narrowed by the project's agent settings. Each becomes a tool.
 */
import { type ActionEffect, effectOf } from '../action-effect.ts';
import { resolveExecutableAction } from '../authorize.ts';
import { isProtectedEnvironment } from '../environments.ts';
import { DoguError, notFound } from '../errors.ts';
import { resolveMembership } from '../manage/resolve-membership.ts';
import type { Action, Principal } from '../model.ts';
import type { Store } from '../ports.ts';
import { requireRight } from '../rights.ts';
import { type AgentSettings, defaultAgentSettings } from './agent-settings.ts';

export interface AgentAction {
  action: Action;
  effect: ActionEffect;
}

export interface AgentScope {
  projectId: string;
  environmentId: string;
}

export async function agentSettingsOf(store: Store, projectId: string): Promise<AgentSettings> {
  const project = await store.getProject(projectId);
  if (!project) throw notFound('Project', projectId);
  return { ...defaultAgentSettings, ...project.agents };
}

/** Every action the principal's agent may call here, in id order. */
export async function listAgentActions(
  store: Store,
  principal: Principal,
  scope: AgentScope,
): Promise<AgentAction[]> {
  const [membership, environment, heads, settings, groups] = await Promise.all([
    resolveMembership(store, scope.projectId, principal.id),
    store.getEnvironment(scope.projectId, scope.environmentId),
    store.listActions(scope.projectId),
    agentSettingsOf(store, scope.projectId),
    store.listActionGroups(scope.projectId),
  ]);
  requireRight(membership, scope.projectId, 'execute');
  if (!environment) throw notFound('Environment', scope.environmentId);
  const allowed = visibleIds(settings, groups);
  const found: AgentAction[] = [];
  for (const head of heads.sort((a, b) => a.id.localeCompare(b.id))) {
    if (allowed && !allowed.has(head.id)) continue;
    const publication = await store.actionVersions.getPublication(scope.projectId, head.id, environment.id);
    if (!publication && isProtectedEnvironment(environment)) continue;
    try {
      // The same check a run makes: membership, environment, version and the action's own permission.
      const { action } = await resolveExecutableAction(store, principal, { ...scope, actionId: head.id });
      found.push({ action, effect: effectOf(action) });
    } catch (error) {
      if (error instanceof DoguError) continue;
      throw error;
    }
  }
  return found;
}

/** The one action a tool call names, refused (404) when the agent may not see it. */
export async function agentAction(
  store: Store,
  principal: Principal,
  scope: AgentScope,
  actionId: string,
): Promise<AgentAction & { settings: AgentSettings }> {
  const [settings, groups] = await Promise.all([
    agentSettingsOf(store, scope.projectId),
    store.listActionGroups(scope.projectId),
  ]);
  const allowed = visibleIds(settings, groups);
  if (allowed && !allowed.has(actionId)) throw notFound('Tool', actionId);
  const { action } = await resolveExecutableAction(store, principal, { ...scope, actionId });
  return { action, effect: effectOf(action), settings };
}

function visibleIds(settings: AgentSettings, groups: { id: string; actionIds: string[] }[]) {
  if (settings.visible === 'all') return undefined;
  const ids = new Set(settings.actionIds);
  for (const group of groups) {
    if (settings.actionGroupIds.includes(group.id)) for (const id of group.actionIds) ids.add(id);
  }
  return ids;
}
