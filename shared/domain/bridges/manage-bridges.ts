/** Register, rotate, list and remove a project's bridges (project settings; docs/bridge.md). */
import { DoguError, notFound } from '../errors.ts';
import { authorize } from '../manage/access.ts';
import type { Principal, Project } from '../model.ts';
import type { Clock, Store } from '../ports.ts';
import { type BridgeInput, type BridgeRegistration, fingerprintOf, maxBridgesPerProject } from './model.ts';

export interface BridgeDeps {
  store: Store;
  clock: Clock;
}

/** What the API answers: the registration with each pinned certificate's SHA-256 fingerprint. */
export function presentBridge(bridge: BridgeRegistration) {
  return {
    ...bridge,
    fingerprints: bridge.certificates.map(fingerprintOf),
    lastContactAt: bridge.lastContactAt ?? null,
  };
}

async function projectOf(store: Store, projectId: string): Promise<Project> {
  const project = await store.getProject(projectId);
  if (!project) throw notFound('Project', projectId);
  return project;
}

export async function listBridges(deps: BridgeDeps, principal: Principal, projectId: string) {
  await authorize(deps.store, principal, projectId, 'view');
  return ((await projectOf(deps.store, projectId)).bridges ?? []).map(presentBridge);
}

/** Registers a bridge or replaces its address and pinned certificates (a rotation). */
export async function putBridge(
  deps: BridgeDeps,
  principal: Principal,
  projectId: string,
  bridgeId: string,
  input: BridgeInput,
): Promise<{ bridge: ReturnType<typeof presentBridge>; created: boolean }> {
  await authorize(deps.store, principal, projectId, 'manage_project');
  const project = await projectOf(deps.store, projectId);
  const bridges = project.bridges ?? [];
  const now = deps.clock.now().toISOString();
  const previous = bridges.find((b) => b.id === bridgeId);
  if (!previous && bridges.length >= maxBridgesPerProject) {
    throw new DoguError('state_conflict', `A project has at most ${maxBridgesPerProject} bridges.`);
  }
  const rotated =
    previous && JSON.stringify(previous.certificates) !== JSON.stringify(input.certificates)
      ? { rotatedAt: now }
      : previous?.rotatedAt
        ? { rotatedAt: previous.rotatedAt }
        : {};
  const bridge: BridgeRegistration = {
    ...(previous ?? {}),
    ...input,
    ...(input.name === undefined ? { name: undefined } : {}),
    id: bridgeId,
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
    ...rotated,
  };
  if (bridge.name === undefined) delete bridge.name;
  await deps.store.updateProject({
    ...project,
    bridges: [...bridges.filter((b) => b.id !== bridgeId), bridge].sort((a, b) => a.id.localeCompare(b.id)),
  });
  return { bridge: presentBridge(bridge), created: !previous };
}

/** Refused (409) while a data source environment still goes through the bridge. */
export async function deleteBridge(
  deps: BridgeDeps,
  principal: Principal,
  projectId: string,
  bridgeId: string,
) {
  await authorize(deps.store, principal, projectId, 'manage_project');
  const project = await projectOf(deps.store, projectId);
  const bridges = project.bridges ?? [];
  if (!bridges.some((b) => b.id === bridgeId)) throw notFound('Bridge', bridgeId);
  const users = (await deps.store.listDataSources(projectId)).flatMap((source) =>
    Object.entries(source.environments)
      .filter(([, connection]) => connection.via === bridgeId)
      .map(([environmentId]) => `${source.id} (${environmentId})`),
  );
  if (users.length > 0) {
    throw new DoguError(
      'state_conflict',
      `Bridge '${bridgeId}' is still used by ${users.join(', ')}; change their via first.`,
    );
  }
  await deps.store.updateProject({ ...project, bridges: bridges.filter((b) => b.id !== bridgeId) });
}

/** Keeps what the bridge said about itself; at most once a minute per bridge, never failing a run. */
export async function recordBridgeContact(
  deps: BridgeDeps,
  projectId: string,
  bridgeId: string,
  contact: { version?: string; timeoutMs?: number },
): Promise<void> {
  const project = await deps.store.getProject(projectId);
  const bridge = project?.bridges?.find((b) => b.id === bridgeId);
  if (!project || !bridge) return;
  const now = deps.clock.now();
  const recent = bridge.lastContactAt && now.getTime() - Date.parse(bridge.lastContactAt) < 60_000;
  if (recent && bridge.version === contact.version && bridge.timeoutMs === contact.timeoutMs) return;
  const updated: BridgeRegistration = {
    ...bridge,
    lastContactAt: now.toISOString(),
    ...(contact.version ? { version: contact.version } : {}),
    ...(contact.timeoutMs ? { timeoutMs: contact.timeoutMs } : {}),
  };
  await deps.store.updateProject({
    ...project,
    bridges: project.bridges!.map((b) => (b.id === bridgeId ? updated : b)),
  });
}
