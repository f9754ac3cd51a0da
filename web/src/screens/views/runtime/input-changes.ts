/**
 * Which queries a standalone input's change runs again (search as you type, issue 29): those whose
 * arguments name `components.<input>` literally. They run once the typing pauses, not per key.
 */
import { localReferences, parseField } from '../../../../../shared/domain/views/expression-syntax.ts';
import type { ViewQuery } from '../view-api.ts';

/** The component ids a query's arguments read (`components.x`, `components['x']`). */
export function componentsReadBy(query: Pick<ViewQuery, 'arguments'>): Set<string> {
  const out = new Set<string>();
  for (const text of Object.values(query.arguments ?? {})) {
    try {
      for (const { node } of parseField(text, 'binding')) {
        for (const ref of localReferences(node)) if (ref.scope === 'components') out.add(ref.id);
      }
    } catch {
      // A broken argument shows its own error when the query runs.
    }
  }
  return out;
}

/** The queries whose arguments read any of `componentIds`. */
export function queriesReading(
  queries: readonly Pick<ViewQuery, 'id' | 'arguments'>[],
  componentIds: ReadonlySet<string>,
): string[] {
  return queries
    .filter((query) => [...componentsReadBy(query)].some((id) => componentIds.has(id)))
    .map((query) => query.id);
}
