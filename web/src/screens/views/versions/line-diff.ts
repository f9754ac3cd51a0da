/**
 * A line diff of two texts (a view version's JSON) through jsdiff's `diffArrays` over lines. Past
 * `maxEditLength` changed lines the diff gives up and shows "all removed, all added" rather than
 * freezing the page (decision 0209).
 */
import { diffArrays } from 'diff';

export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

const maxEditLength = 2_000;

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  const changes = diffArrays(a, b, { maxEditLength });
  if (!changes) {
    return [
      ...a.map((text): DiffLine => ({ kind: 'removed', text })),
      ...b.map((text): DiffLine => ({ kind: 'added', text })),
    ];
  }
  return changes.flatMap((change) =>
    change.value.map(
      (text): DiffLine => ({ kind: change.removed ? 'removed' : change.added ? 'added' : 'same', text }),
    ),
  );
}
