/** Document mode (Firestore REST v1): the operations a script's `db` asks for. */
import { DoguError } from '../../domain/errors.ts';
import type { FirestoreConnection } from './definition.ts';
import { googleCall, type RestContext } from './google-rest.ts';
import { fieldsFromRemote, fieldsToRemote, type RemoteValue, toRemote } from './values.ts';

const defaultEndpoint = 'https://firestore.googleapis.com';
const operators: Record<string, string> = {
  '<': 'LESS_THAN',
  '<=': 'LESS_THAN_OR_EQUAL',
  '==': 'EQUAL',
  '!=': 'NOT_EQUAL',
  '>': 'GREATER_THAN',
  '>=': 'GREATER_THAN_OR_EQUAL',
  'array-contains': 'ARRAY_CONTAINS',
  in: 'IN',
  'not-in': 'NOT_IN',
  'array-contains-any': 'ARRAY_CONTAINS_ANY',
};
const segment = /^[^/]{1,1500}$/;

interface RemoteDocument {
  name: string;
  fields?: Record<string, RemoteValue>;
  createTime?: string;
  updateTime?: string;
}

export function firestoreOperations(connection: FirestoreConnection, context: RestContext) {
  const database = `projects/${connection.projectId}/databases/${connection.databaseId ?? '(default)'}`;
  const root = `${database}/documents`;
  const base = `${(connection.apiEndpoint ?? defaultEndpoint).replace(/\/+$/, '')}/v1`;
  const refer = (path: string) => `${root}/${checkedPath(path, 'document')}`;
  const pathOf = (name: unknown) => String(name).slice(root.length + 1);
  const url = (path: string) => `${base}/${root}/${path.split('/').map(encodeURIComponent).join('/')}`;
  const documentOf = (doc: RemoteDocument) => ({
    id: pathOf(doc.name).split('/').pop(),
    path: pathOf(doc.name),
    exists: true,
    data: fieldsFromRemote(doc.fields, pathOf),
    createTime: doc.createTime,
    updateTime: doc.updateTime,
  });
  const fields = (data: unknown) => fieldsToRemote(data, 'firestore', refer as never);

  return {
    async getDocument(op: { path: string }) {
      const path = checkedPath(op.path, 'document');
      try {
        return documentOf((await googleCall(context, 'GET', url(path))) as unknown as RemoteDocument);
      } catch (error) {
        if (error instanceof DoguError && error.message.startsWith('Google answered 404'))
          return { id: path.split('/').pop(), path, exists: false };
        throw error;
      }
    },
    async setDocument(op: { path: string; data: unknown; merge: boolean }) {
      const path = checkedPath(op.path, 'document');
      const body = { fields: fields(op.data) };
      const mask = op.merge ? maskOf(body.fields) : '';
      await googleCall(context, 'PATCH', `${url(path)}${mask}`, body);
      return null;
    },
    async updateDocument(op: { path: string; data: unknown }) {
      const path = checkedPath(op.path, 'document');
      const body = { fields: fields(op.data) };
      await googleCall(
        context,
        'PATCH',
        `${url(path)}${maskOf(body.fields)}&currentDocument.exists=true`,
        body,
      );
      return null;
    },
    async deleteDocument(op: { path: string }) {
      await googleCall(context, 'DELETE', url(checkedPath(op.path, 'document')));
      return null;
    },
    async addDocument(op: { path: string; data: unknown }) {
      const path = checkedPath(op.path, 'collection');
      const created = (await googleCall(context, 'POST', url(path), {
        fields: fields(op.data),
      })) as unknown as RemoteDocument;
      return { path: pathOf(created.name) };
    },
    async runQuery(op: {
      path: string;
      where: { field: string; op: string; value: unknown }[];
      orderBy: { field: string; direction: string }[];
      limit?: number;
    }) {
      const path = checkedPath(op.path, 'collection');
      const parts = path.split('/');
      const collectionId = parts.pop()!;
      const parent = parts.length ? `${url(parts.join('/'))}:runQuery` : `${base}/${root}:runQuery`;
      const filters = op.where.map((w) => {
        const operator = operators[w.op];
        if (!operator)
          throw new DoguError('argument_invalid', `where() does not know the operator '${w.op}'.`);
        return {
          fieldFilter: {
            field: { fieldPath: w.field },
            op: operator,
            value: toRemote(w.value, 'firestore', refer as never),
          },
        };
      });
      const structuredQuery = {
        from: [{ collectionId }],
        ...(filters.length === 1 ? { where: filters[0] } : {}),
        ...(filters.length > 1 ? { where: { compositeFilter: { op: 'AND', filters } } } : {}),
        ...(op.orderBy.length
          ? {
              orderBy: op.orderBy.map((o) => ({
                field: { fieldPath: o.field },
                direction: o.direction === 'desc' ? 'DESCENDING' : 'ASCENDING',
              })),
            }
          : {}),
        ...(op.limit !== undefined ? { limit: checkedLimit(op.limit) } : {}),
      };
      const answer = (await googleCall(context, 'POST', parent, { structuredQuery })) as unknown;
      return (Array.isArray(answer) ? answer : [])
        .filter((entry: { document?: RemoteDocument }) => entry.document)
        .map((entry: { document: RemoteDocument }) => documentOf(entry.document));
    },
  };
}

function maskOf(fields: Record<string, unknown>): string {
  const names = Object.keys(fields).map((name) => `updateMask.fieldPaths=${encodeURIComponent(name)}`);
  return `?${names.join('&')}`;
}

function checkedPath(path: unknown, what: 'document' | 'collection'): string {
  const segments = typeof path === 'string' ? path.split('/') : [];
  const even = segments.length % 2 === 0;
  if (
    segments.length === 0 ||
    !segments.every((s) => segment.test(s) && s !== '.' && s !== '..') ||
    even !== (what === 'document')
  )
    throw new DoguError(
      'argument_invalid',
      `'${String(path).slice(0, 200)}' is not a ${what} path (${what === 'document' ? 'collection/id[/collection/id…]' : 'collection[/id/collection…]'}).`,
    );
  return path as string;
}

export function checkedLimit(limit: unknown): number {
  if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > 10_000)
    throw new DoguError('argument_invalid', 'limit() takes a whole number from 1 to 10000.');
  return limit as number;
}
