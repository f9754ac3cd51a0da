/**
 * Firestore (document mode) and Datastore (key-entity mode) actions: scripts in the sandbox talk to
 * a local stand-in for Google's REST APIs and token endpoint (no emulator installs here), which
 * records every request so the exact calls and the JSON mapping of Google's values are asserted.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerSandbox } from '../../../shared/adapters/sandbox/worker-sandbox.ts';
import { firestoreRuntime } from '../../../shared/connectors/firestore/runtime.ts';
import type { Action, DataSource } from '../../../shared/domain/model.ts';
import type { EngineRun } from '../../../shared/domain/ports.ts';
import { type ReceivedRequest, startHttpServer, type TestServer } from '../../support/http-server.ts';

const sandbox = createWorkerSandbox();
let google: TestServer;
let keyText: string;
const answers = new Map<string, unknown>();
const token = 'ya29.document-token';

beforeAll(async () => {
  google = await startHttpServer((request, response) => {
    const path = request.url.split('?')[0]!;
    if (path === '/token') {
      response.writeHead(200, { 'content-type': 'application/json' });
      return response.end(JSON.stringify({ access_token: token, expires_in: 3600 }));
    }
    const answer = answers.get(`${request.method} ${path}`);
    if (answer === undefined) {
      response.writeHead(404, { 'content-type': 'application/json' });
      return response.end(JSON.stringify({ error: { status: 'NOT_FOUND', message: 'no such document' } }));
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer));
  });
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  keyText = JSON.stringify({
    type: 'service_account',
    client_email: 'dogu@shop-prod-123.iam.gserviceaccount.com',
    private_key: privateKey,
    token_uri: `${google.url}/token`,
  });
});
afterAll(async () => {
  await sandbox.close?.();
  await google?.close();
});

const runtime = () => firestoreRuntime();
const docs = '/v1/projects/shop-prod-123/databases/(default)/documents';

function runOf(
  code: string,
  mode: 'document' | 'key-entity',
  values: Record<string, unknown> = {},
): EngineRun {
  const action = {
    id: 'docs',
    name: 'Docs',
    kind: 'document',
    code,
    parameters: [{ name: 'status', kind: 'text', label: 'Status' }],
  } as unknown as Action;
  return {
    action,
    dataSource: { id: 'fs', kind: 'firestore' } as DataSource,
    environmentId: 'development',
    connection: { mode, projectId: 'shop-prod-123', serviceAccountKey: keyText, apiEndpoint: google.url },
    key: 'p/fs/development',
    values,
    signal: AbortSignal.timeout(10_000),
    deadlineAt: Date.now() + 10_000,
    callAction: async () => [],
    sandbox,
  };
}

const sent = (method: string, pathPart: string): ReceivedRequest[] =>
  google.requests.filter((r) => r.method === method && decodeURIComponent(r.url).includes(pathPart));
const bodyOf = (request: ReceivedRequest) => JSON.parse(request.body.toString('utf8'));

describe('document mode (Firestore)', () => {
  it('runs a query with where, orderBy and limit and maps Google values to JSON', async () => {
    answers.set(`POST ${docs}:runQuery`, [
      {
        document: {
          name: 'projects/shop-prod-123/databases/(default)/documents/orders/ord-1',
          fields: {
            status: { stringValue: 'paid' },
            total: { integerValue: '12800' },
            big: { integerValue: '9007199254740993' },
            at: { timestampValue: '2026-11-01T09:30:00.123456Z' },
            where: { geoPointValue: { latitude: 35.68, longitude: 139.76 } },
            customer: {
              referenceValue: 'projects/shop-prod-123/databases/(default)/documents/customers/c-7',
            },
            raw: { bytesValue: 'AAEC' },
            tags: { arrayValue: { values: [{ stringValue: 'gift' }, { nullValue: null }] } },
            address: { mapValue: { fields: { city: { stringValue: 'Tokyo' } } } },
          },
          createTime: '2026-11-01T09:30:00Z',
          updateTime: '2026-11-01T09:30:00Z',
        },
        readTime: '2026-11-26T00:00:00Z',
      },
      { readTime: '2026-11-26T00:00:00Z' },
    ]);
    const [result] = await runtime().run(
      runOf(
        'const snap = await db.collection("orders").where("status", "==", {{ status }}).where("total", ">=", 1000).orderBy("total", "desc").limit(10).get();\nconsole.log(snap.size);\nreturn snap.docs.map((d) => ({ id: d.id, ...d.data() }));',
        'document',
        { status: 'paid' },
      ),
    );
    expect(result!.status, JSON.stringify(result)).toBe('succeeded');
    expect((result as unknown as { value: unknown }).value).toEqual([
      {
        id: 'ord-1',
        status: 'paid',
        total: 12800,
        big: '9007199254740993',
        at: '2026-11-01T09:30:00.123Z',
        where: { latitude: 35.68, longitude: 139.76 },
        customer: 'customers/c-7',
        raw: 'AAEC',
        tags: ['gift', null],
        address: { city: 'Tokyo' },
      },
    ]);
    const [query] = sent('POST', `${docs}:runQuery`);
    expect(query!.headers.authorization).toBe(`Bearer ${token}`);
    expect(bodyOf(query!)).toEqual({
      structuredQuery: {
        from: [{ collectionId: 'orders' }],
        where: {
          compositeFilter: {
            op: 'AND',
            filters: [
              {
                fieldFilter: { field: { fieldPath: 'status' }, op: 'EQUAL', value: { stringValue: 'paid' } },
              },
              {
                fieldFilter: {
                  field: { fieldPath: 'total' },
                  op: 'GREATER_THAN_OR_EQUAL',
                  value: { integerValue: '1000' },
                },
              },
            ],
          },
        },
        orderBy: [{ field: { fieldPath: 'total' }, direction: 'DESCENDING' }],
        limit: 10,
      },
    });
  });

  it('reads a document, tells a missing one, writes with special values', async () => {
    answers.set(`GET ${docs}/customers/c-7`, {
      name: 'projects/shop-prod-123/databases/(default)/documents/customers/c-7',
      fields: { name: { stringValue: 'Ann' } },
    });
    answers.set(`PATCH ${docs}/customers/c-7`, {});
    const [result] = await runtime().run(
      runOf(
        [
          'const ann = await db.doc("customers/c-7").get();',
          'const ghost = await db.collection("customers").doc("nobody").get();',
          'await db.doc("customers/c-7").set({ seen: firestore.Timestamp.fromDate("2026-11-26T00:00:00Z"), home: new firestore.GeoPoint(1.5, 2), vip: true }, { merge: true });',
          'return { ann: ann.data(), ghost: ghost.exists };',
        ].join('\n'),
        'document',
      ),
    );
    expect((result as unknown as { value: unknown }).value).toEqual({ ann: { name: 'Ann' }, ghost: false });
    const [write] = sent('PATCH', '/customers/c-7');
    expect(decodeURIComponent(write!.url)).toContain(
      '?updateMask.fieldPaths=seen&updateMask.fieldPaths=home&updateMask.fieldPaths=vip',
    );
    expect(bodyOf(write!)).toEqual({
      fields: {
        seen: { timestampValue: '2026-11-26T00:00:00.000Z' },
        home: { geoPointValue: { latitude: 1.5, longitude: 2 } },
        vip: { booleanValue: true },
      },
    });
  });

  it('refuses a malformed path and an unknown operator with a clear error', async () => {
    const [bad] = await runtime().run(runOf('await db.doc("customers").get();', 'document'));
    expect(bad!.error?.message).toContain("'customers' is not a document path");
    const [op] = await runtime().run(runOf('await db.collection("a").where("x", "~", 1).get();', 'document'));
    expect(op!.error?.message).toContain("does not know the operator '~'");
  });
});

describe('key-entity mode (Datastore)', () => {
  it('looks up by key, runs a query and saves, with keys as paths', async () => {
    const base = '/v1/projects/shop-prod-123';
    answers.set(`POST ${base}:lookup`, {
      found: [
        {
          entity: {
            key: { partitionId: { projectId: 'shop-prod-123' }, path: [{ kind: 'Task', name: 'sample' }] },
            properties: {
              done: { booleanValue: false },
              owner: { keyValue: { path: [{ kind: 'User', id: '42' }] } },
              due: { timestampValue: '2026-12-01T00:00:00Z' },
            },
          },
        },
      ],
      missing: [{ entity: { key: { path: [{ kind: 'Task', id: '5' }] } } }],
    });
    answers.set(`POST ${base}:runQuery`, {
      batch: {
        entityResults: [
          {
            entity: {
              key: { path: [{ kind: 'Task', id: '7' }] },
              properties: { done: { booleanValue: true } },
            },
          },
        ],
      },
    });
    answers.set(`POST ${base}:commit`, { mutationResults: [{}] });
    const [result] = await runtime().run(
      runOf(
        [
          'const [found] = await datastore.get([datastore.key(["Task", "sample"]), datastore.key(["Task", 5])]);',
          'const [done] = await datastore.runQuery(datastore.createQuery("Task").filter("done", "=", true).order("due", { descending: true }).limit(5));',
          'await datastore.save({ key: datastore.key(["Task", "new"]), data: { done: false, owner: datastore.key(["User", 42]) } });',
          'return { found, done };',
        ].join('\n'),
        'key-entity',
      ),
    );
    expect(result!.status, JSON.stringify(result)).toBe('succeeded');
    expect((result as unknown as { value: unknown }).value).toEqual({
      found: [
        {
          done: false,
          owner: ['User', 42],
          due: '2026-12-01T00:00:00.000Z',
          __key__: { $key: ['Task', 'sample'] },
        },
        null,
      ],
      done: [{ done: true, __key__: { $key: ['Task', 7] } }],
    });
    expect(bodyOf(sent('POST', ':lookup')[0]!)).toEqual({
      keys: [
        { partitionId: { projectId: 'shop-prod-123' }, path: [{ kind: 'Task', name: 'sample' }] },
        { partitionId: { projectId: 'shop-prod-123' }, path: [{ kind: 'Task', id: '5' }] },
      ],
    });
    expect(bodyOf(sent('POST', `${base}:runQuery`)[0]!)).toEqual({
      partitionId: { projectId: 'shop-prod-123' },
      query: {
        kind: [{ name: 'Task' }],
        filter: {
          propertyFilter: { property: { name: 'done' }, op: 'EQUAL', value: { booleanValue: true } },
        },
        order: [{ property: { name: 'due' }, direction: 'DESCENDING' }],
        limit: 5,
      },
    });
    expect(bodyOf(sent('POST', ':commit')[0]!)).toEqual({
      mode: 'NON_TRANSACTIONAL',
      mutations: [
        {
          upsert: {
            key: { partitionId: { projectId: 'shop-prod-123' }, path: [{ kind: 'Task', name: 'new' }] },
            properties: {
              done: { booleanValue: false },
              owner: {
                keyValue: { partitionId: { projectId: 'shop-prod-123' }, path: [{ kind: 'User', id: '42' }] },
              },
            },
          },
        },
      ],
    });
  });

  it('offers only datastore in key-entity mode and db/firestore in document mode', async () => {
    const [keyEntity] = await runtime().run(
      runOf('return [typeof db, typeof firestore, typeof datastore];', 'key-entity'),
    );
    expect((keyEntity as unknown as { value: unknown }).value).toEqual(['undefined', 'undefined', 'object']);
    const [document] = await runtime().run(
      runOf('return [typeof db, typeof firestore, typeof datastore];', 'document'),
    );
    expect((document as unknown as { value: unknown }).value).toEqual(['object', 'object', 'undefined']);
  });
});
