/** A view's arguments (`panel.args`) from the URL's query, typed by the view's parameters. */
import { parseExactJson } from '../../../../shared/domain/exact-numbers.ts';
import type { Parameter } from '../../api/types.ts';

export function argsFromQuery(
  parameters: readonly Parameter[],
  query: URLSearchParams,
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, raw] of query) {
    const parameter = parameters.find((p) => p.name === name);
    args[name] = coerce(parameter?.kind, raw);
  }
  return args;
}

function coerce(kind: string | undefined, raw: string): unknown {
  if (kind === 'number') {
    const n = Number(raw);
    return raw.trim() !== '' && !Number.isNaN(n) ? n : raw;
  }
  if (kind === 'boolean') return raw === 'true';
  if (kind === 'json' || kind === 'array' || kind === 'tuple') {
    // Decision 0025: JSON whose numbers would be rounded stays text (refused by the parameter's check).
    const parsed = parseExactJson(raw);
    return parsed.ok ? parsed.value : raw;
  }
  return raw;
}
