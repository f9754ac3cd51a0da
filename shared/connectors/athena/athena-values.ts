/**
 * Athena binds execution parameters positionally to `?` and reads each as a SQL literal, so every
 * bound value is written as one: strings quoted with '' inside, numbers, booleans, NULL.
 */
export function athenaLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'NULL';
    // Trino reads 1e+21 as a DOUBLE and 12 as an INTEGER; both are what the number was.
    return String(value);
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `'${text.replaceAll("'", "''")}'`;
}
