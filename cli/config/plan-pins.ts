/**
 * Plans version pins per environment — `publications` (actions) and `viewPublications` (views) —
 * alike. Version numbers count the saves of one definition in one project, so a pin means the same
 * definition only within that project's history (docs/config.md). A version the same apply creates
 * (the definition is new, or changed by the file) may be pinned: pins are written after definitions.
 */
import type { Change, Phase, PlannedWrites, PlannerResult, PlanProblem } from './plan-types.ts';

export interface PinKind {
  /** The file's key, first part of each problem's path. */
  key: 'publications' | 'viewPublications';
  /** What is pinned, in messages. */
  noun: 'action' | 'view';
  resource: 'publication' | 'viewPublication';
  phase: Phase;
  path: (id: string, environmentId: string) => string;
}

/** A definition's latest version once the file's definitions are saved: each save adds one. */
export interface LatestVersion {
  version: number;
  afterApply: boolean;
}

/**
 * `latest(id, stored, inFile)`: stored version (undefined when the project has none) and whether the
 * file changes the definition; `current(environmentId, id)`: the version pinned there now.
 */
export function planPins(
  kind: PinKind,
  pins: Readonly<Record<string, Readonly<Record<string, number>>>>,
  latestOf: (id: string) => LatestVersion | undefined,
  current: (environmentId: string, id: string) => number | undefined,
): PlannerResult {
  const planned: PlannedWrites[] = [];
  const problems: PlanProblem[] = [];
  for (const [environmentId, byId] of Object.entries(pins)) {
    for (const [id, version] of Object.entries(byId)) {
      const filePath = [kind.key, environmentId, id];
      const latest = latestOf(id);
      if (latest === undefined) {
        problems.push({ path: filePath, message: `no ${kind.noun} '${id}' in the file or in the project` });
        continue;
      }
      if (version > latest.version) {
        problems.push({
          path: filePath,
          message: `${kind.noun} '${id}' has no version ${version}: the latest ${latest.afterApply ? 'after this apply ' : ''}is ${latest.version}`,
        });
        continue;
      }
      const now = current(environmentId, id);
      const change: Change = now === undefined ? 'create' : now === version ? 'unchanged' : 'update';
      planned.push({
        resource: {
          kind: kind.resource,
          id: `${environmentId}.${id}`,
          filePath,
          change,
          fields:
            change === 'create'
              ? [{ kind: 'added', path: [], after: version }]
              : change === 'update'
                ? [{ kind: 'changed', path: [], before: now, after: version }]
                : [],
          writeOnly: [],
        },
        writes: [{ phase: kind.phase, step: { path: kind.path(id, environmentId), body: { version } } }],
      });
    }
  }
  return { planned, problems };
}

/** The latest version of a definition stored at `storedVersion` (if any) that the file may change. */
export function latestAfterApply(
  storedVersion: number | undefined,
  inFile: boolean,
  changedByFile: () => boolean,
): LatestVersion | undefined {
  if (storedVersion === undefined) return inFile ? { version: 1, afterApply: true } : undefined;
  const changed = inFile && changedByFile();
  return { version: storedVersion + (changed ? 1 : 0), afterApply: changed };
}
