/** A1 notation: quoted sheet titles, column letters, the first row of a range Google answered. */

/** `Order's list` → `'Order''s list'` (always quoted: titles may hold spaces, `!` or look like cells). */
export const quotedSheet = (title: string) => `'${title.replaceAll("'", "''")}'`;

/** 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/** `'Sheet1'!B3:F10` → { row: 3, column: 1 }; a range without a start cell starts at A1. */
export function rangeStart(range: string): { row: number; column: number } {
  const cells = range.slice(range.lastIndexOf('!') + 1);
  const match = /^\$?([A-Za-z]*)\$?(\d*)/.exec(cells);
  const letters = (match?.[1] ?? '').toUpperCase();
  let column = 0;
  for (const letter of letters) column = column * 26 + (letter.charCodeAt(0) - 64);
  return { row: match?.[2] ? Number(match[2]) : 1, column: letters ? column - 1 : 0 };
}
