/** Key-entity mode (Datastore REST v1): the operations a script's `datastore` asks for. */
import { DoguError } from '../../domain/errors.ts';
import type { FirestoreConnection } from './definition.ts';
import { checkedLimit } from './firestore-api.ts';
import { googleCall, type RestContext } from './google-rest.ts';
import { fieldsFromRemote, fieldsToRemote, type RemoteValue, toRemote } from './values.ts';

const defaultEndpoint = 'https://datastore.googleapis.com';
const operators: Record<string, string> = {
  '=': 'EQUAL',
  '<': 'LESS_THAN',
  '<=': 'LESS_THAN_OR_EQUAL',
  '>': 'GREATER_THAN',
  '>=': 'GREATER_THAN_OR_EQUAL',
  '!=': 'NOT_EQUAL',
  IN: 'IN',
  NOT_IN: 'NOT_IN',
};

type KeyPath = (string | number)[];
interface RemoteKey {
  partitionId?: Record<string, string>;
  path: { kind: string; id?: string; name?: string }[];
}
interface RemoteEntity {
  key: RemoteKey;
  properties?: Record<string, RemoteValue>;
}

export function datastoreOperations(connection: FirestoreConnection, context: RestContext) {
  const base = `${(connection.apiEndpoint ?? defaultEndpoint).replace(/\/+$/, '')}/v1/projects/${connection.projectId}`;
  const databaseId =
    connection.databaseId && connection.databaseId !== '(default)' ? connection.databaseId : undefined;
  const partitionId = { projectId: connection.projectId, ...(databaseId ? { databaseId } : {}) };
  const scope = databaseId ? { databaseId } : {};
  const keyOf = (path: KeyPath): RemoteKey => ({ partitionId, path: remotePath(path) });
  const pathOf = (key: unknown): KeyPath =>
    ((key as RemoteKey).path ?? []).flatMap((element) => [
      element.kind,
      ...(element.name !== undefined
        ? [element.name]
        : element.id !== undefined
          ? [integerOf(element.id)]
          : []),
    ]);
  const entityOf = (entity: RemoteEntity) => ({
    key: pathOf(entity.key),
    data: fieldsFromRemote(entity.properties, pathOf),
  });
  const properties = (data: unknown) => fieldsToRemote(data, 'datastore', keyOf as never);

  return {
    async lookup(op: { keys: KeyPath[] }) {
      const keys = op.keys.map(keyOf);
      const answer = (await googleCall(context, 'POST', `${base}:lookup`, { ...scope, keys })) as {
        found?: { entity: RemoteEntity }[];
      };
      // Lookup answers in no particular order: match each found entity to the key asked for.
      const found = new Map(
        (answer.found ?? []).map((f) => [JSON.stringify(pathOf(f.entity.key)), f.entity]),
      );
      return op.keys.map((path) => {
        const entity = found.get(JSON.stringify(pathOf(keyOf(path))));
        return entity ? entityOf(entity) : null;
      });
    },
    async runQuery(op: {
      kind: string;
      filters: { property: string; op: string; value: unknown }[];
      order: { property: string; descending: boolean }[];
      limit?: number;
    }) {
      if (typeof op.kind !== 'string' || op.kind === '')
        throw new DoguError('argument_invalid', 'createQuery() needs a kind.');
      const filters = op.filters.map((f) => {
        const operator = operators[f.op];
        if (!operator)
          throw new DoguError('argument_invalid', `filter() does not know the operator '${f.op}'.`);
        return {
          propertyFilter: {
            property: { name: f.property },
            op: operator,
            value: toRemote(f.value, 'datastore', keyOf as never),
          },
        };
      });
      const query = {
        kind: [{ name: op.kind }],
        ...(filters.length === 1 ? { filter: filters[0] } : {}),
        ...(filters.length > 1 ? { filter: { compositeFilter: { op: 'AND', filters } } } : {}),
        ...(op.order.length
          ? {
              order: op.order.map((o) => ({
                property: { name: o.property },
                direction: o.descending ? 'DESCENDING' : 'ASCENDING',
              })),
            }
          : {}),
        ...(op.limit !== undefined ? { limit: checkedLimit(op.limit) } : {}),
      };
      const answer = (await googleCall(context, 'POST', `${base}:runQuery`, {
        ...scope,
        partitionId,
        query,
      })) as {
        batch?: { entityResults?: { entity: RemoteEntity }[] };
      };
      return (answer.batch?.entityResults ?? []).map((result) => entityOf(result.entity));
    },
    async save(op: { entities: { key: KeyPath; data: unknown }[] }) {
      const mutations = op.entities.map((e) => ({
        upsert: { key: keyOf(e.key), properties: properties(e.data) },
      }));
      await googleCall(context, 'POST', `${base}:commit`, { ...scope, mode: 'NON_TRANSACTIONAL', mutations });
      return null;
    },
    async delete(op: { keys: KeyPath[] }) {
      const mutations = op.keys.map((path) => ({ delete: keyOf(path) }));
      await googleCall(context, 'POST', `${base}:commit`, { ...scope, mode: 'NON_TRANSACTIONAL', mutations });
      return null;
    },
  };
}

/** ['Task', 'sample', 'Note', 5] → [{ kind: 'Task', name: 'sample' }, { kind: 'Note', id: '5' }]. */
function remotePath(path: unknown): RemoteKey['path'] {
  if (!Array.isArray(path) || path.length === 0 || path.length > 200)
    throw new DoguError('argument_invalid', 'A key is a path such as ["Task", "sample"] or ["Task", 5].');
  const elements: RemoteKey['path'] = [];
  for (let i = 0; i < path.length; i += 2) {
    const [kind, identity] = [path[i], path[i + 1]];
    if (typeof kind !== 'string' || kind === '')
      throw new DoguError('argument_invalid', `Key element ${i / 2 + 1} needs a kind (a text).`);
    if (identity === undefined) elements.push({ kind });
    else if (typeof identity === 'number' && Number.isSafeInteger(identity))
      elements.push({ kind, id: String(identity) });
    else if (typeof identity === 'string') elements.push({ kind, name: identity });
    else
      throw new DoguError(
        'argument_invalid',
        `Key element ${i / 2 + 1} needs a name (text) or an id (integer).`,
      );
  }
  return elements;
}

const integerOf = (text: string) => (Number.isSafeInteger(Number(text)) ? Number(text) : text);
