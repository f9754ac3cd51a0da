/**
 * Which route keys of an HTTP API a request matches, as AWS documents the selection ("Routing API
 * requests", HTTP APIs): a full match (method or ANY; `{name}` matches one segment) before a
 * match with a greedy `{proxy+}` (one or more further segments), and `$default` when none does.
 * Within a tier API Gateway takes the most specific; the tests require every candidate of the
 * winning tier to name the same handler, so nothing depends on how finely that is ranked.
 */

export interface RouteKeyTarget {
  key: string;
  handler: string;
}

export interface Selection<T extends RouteKeyTarget> {
  tier: 'full' | 'greedy' | 'default';
  candidates: T[];
}

const isVariable = (segment: string) => /^\{[^}]+\}$/.test(segment);
const segmentMatches = (pattern: string, segment: string) =>
  segment !== '' && (isVariable(pattern) || pattern === segment);

export function selectRouteKeys<T extends RouteKeyTarget>(
  keys: readonly T[],
  method: string,
  path: string,
): Selection<T> {
  const segments = path.slice(1).split('/');
  const full: T[] = [];
  const greedy: T[] = [];
  for (const target of keys) {
    if (target.key === '$default') continue;
    const [keyMethod, keyPath] = target.key.split(' ') as [string, string];
    if (keyMethod !== 'ANY' && keyMethod !== method) continue;
    const patterns = keyPath.slice(1).split('/');
    if (patterns.at(-1) === '{proxy+}') {
      const prefix = patterns.slice(0, -1);
      const rest = segments.slice(prefix.length);
      if (
        rest.length > 0 &&
        rest.every((s) => s !== '') &&
        prefix.every((p, i) => segmentMatches(p, segments[i]!))
      ) {
        greedy.push(target);
      }
    } else if (
      patterns.length === segments.length &&
      patterns.every((p, i) => segmentMatches(p, segments[i]!))
    ) {
      full.push(target);
    }
  }
  if (full.length > 0) return { tier: 'full', candidates: full };
  if (greedy.length > 0) return { tier: 'greedy', candidates: greedy };
  return { tier: 'default', candidates: keys.filter((k) => k.key === '$default') };
}

/** The path parameters API Gateway hands the function for a request matched by `key`. */
export function pathParametersOf(key: string, path: string): Record<string, string> | undefined {
  if (key === '$default') return undefined;
  const patterns = key.split(' ')[1]!.slice(1).split('/');
  const segments = path.slice(1).split('/');
  const parameters: Record<string, string> = {};
  patterns.forEach((pattern, i) => {
    if (pattern === '{proxy+}') parameters.proxy = segments.slice(i).join('/');
    else if (isVariable(pattern)) parameters[pattern.slice(1, -1)] = decoded(segments[i]!);
  });
  return Object.keys(parameters).length > 0 ? parameters : undefined;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
