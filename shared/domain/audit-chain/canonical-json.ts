/**
 * Canonical JSON (RFC 8785, JCS) for the values an audit entry holds: strings, finite numbers,
 * booleans, null, arrays and plain objects. Keys are sorted by UTF-16 code units (what
 * `Array.prototype.sort` does without a comparer) and strings and numbers are written as
 * `JSON.stringify` writes them, which is what JCS prescribes (ECMAScript's Number::toString). No
 * canonicalisation package is a dependency (decision 0180); this stays one function so it can be
 * swapped for `canonicalize` without changing a hash.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('Canonical JSON has no NaN or Infinity.');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
  }
  throw new TypeError(`Canonical JSON cannot hold a ${typeof value}.`);
}
