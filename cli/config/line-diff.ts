/** A small line diff for multi-line texts (SQL, JSON bodies), so a reviewer sees which lines changed. */

const contextLines = 1;
/** Beyond this many line pairs the texts are shown as replaced rather than diffed (quadratic table). */
const maxCells = 250_000;

/** Lines prefixed with ' ', '-' or '+', unchanged runs shortened to `…`. */
export function lineDiff(before: string, after: string): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length * b.length > maxCells) return [...a.map((l) => `-${l}`), ...b.map((l) => `+${l}`)];
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const lines: { mark: ' ' | '-' | '+'; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ mark: ' ', text: a[i++]! });
      j++;
    } else if (i < a.length && (j >= b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      lines.push({ mark: '-', text: a[i++]! }); // removals first, as in a unified diff
    } else {
      lines.push({ mark: '+', text: b[j++]! });
    }
  }
  const near = (index: number) =>
    lines.slice(Math.max(0, index - contextLines), index + contextLines + 1).some((l) => l.mark !== ' ');
  const shown: string[] = [];
  lines.forEach((line, index) => {
    if (line.mark !== ' ' || near(index)) shown.push(`${line.mark}${line.text}`);
    else if (shown.at(-1) !== ' …') shown.push(' …');
  });
  return shown;
}
