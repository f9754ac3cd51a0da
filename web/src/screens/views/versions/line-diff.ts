/**
 * A line diff of two texts (a view version's JSON): the longest common subsequence of lines, then
 * each line kept, removed or added in order. Views are small (the API caps their size), so the
 * quadratic table is cheap; past `maxCells` the diff falls back to "all removed, all added" rather
 * than freezing the page (decision 0209).
 */
export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

const maxCells = 4_000_000;

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  // Common head and tail first: most edits touch a few lines, which keeps the table small.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const same = (lines: string[]): DiffLine[] => lines.map((text) => ({ kind: 'same', text }));
  const middleA = a.slice(head, a.length - tail);
  const middleB = b.slice(head, b.length - tail);
  return [...same(a.slice(0, head)), ...middle(middleA, middleB), ...same(a.slice(a.length - tail))];
}

function middle(a: string[], b: string[]): DiffLine[] {
  const removed = (text: string): DiffLine => ({ kind: 'removed', text });
  const added = (text: string): DiffLine => ({ kind: 'added', text });
  if (a.length * b.length > maxCells) return [...a.map(removed), ...b.map(added)];
  const width = b.length + 1;
  // lcs[i * width + j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
      out.push(removed(a[i++]!));
    } else {
      out.push(added(b[j++]!));
    }
  }
  while (i < a.length) out.push(removed(a[i++]!));
  while (j < b.length) out.push(added(b[j++]!));
  return out;
}
