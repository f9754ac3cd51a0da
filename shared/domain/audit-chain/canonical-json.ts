/**
 * Canonical JSON (RFC 8785, JCS) through `canonicalize`, the RFC's reference package. Strings are
 * first made well-formed (a lone surrogate becomes U+FFFD): JCS refuses lone surrogates, while a
 * request's JSON may carry one into an audit entry, and an append must never fail on its content.
 * Writing and verifying both pass through here, so the hash covers what storage can keep.
 */
import canonicalize from 'canonicalize';

export function canonicalJson(value: unknown): string {
  const text = canonicalize(wellFormed(value));
  if (text === undefined) throw new TypeError(`Canonical JSON cannot hold a ${typeof value}.`);
  return text;
}

function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return (value as string & { toWellFormed(): string }).toWellFormed();
  if (Array.isArray(value)) return value.map(wellFormed);
  if (
    value !== null &&
    typeof value === 'object' &&
    [Object.prototype, null].includes(Object.getPrototypeOf(value))
  ) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [wellFormed(key), wellFormed(item)]),
    );
  }
  // A Date or a bigint would be written through toJSON or not at all: an entry must hold plain JSON.
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean')
    return value;
  throw new TypeError(
    `Canonical JSON cannot hold a ${typeof value === 'object' ? 'non-plain object' : typeof value}.`,
  );
}
