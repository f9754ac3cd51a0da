/**
 * Action versions. Every save stores an immutable version (definition, author,
 * time, message). An environment runs the version published to it, or — if
 * nothing was ever published there — the latest version. Rolling back is
 * publishing an earlier version. A version not published where it runs that reads secrets runs only
 * by its author's right to manage secrets (draft-secrets.ts, decision 0026).
 */
import type { ActionInput } from './definitions/action.ts';
import type { DocumentPublication, DocumentVersion } from './versioned-documents.ts';

export interface ActionVersion extends DocumentVersion {
  actionId: string;
  definition: ActionInput;
}

export interface Publication extends DocumentPublication {
  actionId: string;
}

export interface DefinitionChange {
  /** A readable path: `statements[0].sql`, `parameters[1].default`. */
  path: string;
  before?: unknown;
  after?: unknown;
}

/** Field-level differences between two definitions, in a stable order. */
export function diffDefinitions(before: unknown, after: unknown, path = ''): DefinitionChange[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  const bothArrays = Array.isArray(before) && Array.isArray(after);
  const bothObjects = isPlainObject(before) && isPlainObject(after);
  if (bothArrays) {
    const changes: DefinitionChange[] = [];
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      changes.push(...diffDefinitions(before[i], after[i], `${path}[${i}]`));
    }
    return changes;
  }
  if (bothObjects) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => diffDefinitions(before[key], after[key], path ? `${path}.${key}` : key));
  }
  return [
    {
      path: path || '(whole)',
      ...(before === undefined ? {} : { before }),
      ...(after === undefined ? {} : { after }),
    },
  ];
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
