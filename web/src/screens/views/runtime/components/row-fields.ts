/**
 * Reading a field of a row and a value as plain text: pure (no React, no console state), so the
 * code-view frame's SDK shares them with visual views without pulling the console into its bundle.
 */

/** `customer.name` reads a nested member; own data only (as expressions do). */
export function fieldOf(row: unknown, path: string): unknown {
  let value: unknown = row;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

export function plainText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
