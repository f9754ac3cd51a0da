/** Field-by-field differences between two JSON values, as paths like `parameters[1].default`. */
import { isRecord } from './normalise.ts';
import type { Path } from './path.ts';

export type FieldChange =
  | { kind: 'changed'; path: Path; before: unknown; after: unknown }
  | { kind: 'added'; path: Path; after: unknown }
  | { kind: 'removed'; path: Path; before: unknown };

/**
 * Objects are compared key by key and arrays index by index, so a changed SQL statement shows as
 * `statements[0].sql`, not as a new `statements` list. Key order does not matter.
 */
export function fieldChanges(before: unknown, after: unknown, path: Path = []): FieldChange[] {
  if (isDeepEqual(before, after)) return [];
  if (isRecord(before) && isRecord(after)) {
    const keys = [...Object.keys(after), ...Object.keys(before).filter((key) => !(key in after))];
    return keys.flatMap((key) => {
      if (!(key in before)) return [{ kind: 'added' as const, path: [...path, key], after: after[key] }];
      if (!(key in after)) return [{ kind: 'removed' as const, path: [...path, key], before: before[key] }];
      return fieldChanges(before[key], after[key], [...path, key]);
    });
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    return Array.from({ length: Math.max(before.length, after.length) }, (_, i) => {
      if (i >= before.length) return [{ kind: 'added' as const, path: [...path, i], after: after[i] }];
      if (i >= after.length) return [{ kind: 'removed' as const, path: [...path, i], before: before[i] }];
      return fieldChanges(before[i], after[i], [...path, i]);
    }).flat();
  }
  return [{ kind: 'changed', path, before, after }];
}

export function isDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => isDeepEqual(item, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((key) => key in b && isDeepEqual(a[key], b[key]))
    );
  }
  return false;
}
