/**
 * A Firestore data source and a document action through the API of a real runtime: the key is
 * write-only, test connection and a run go to a local stand-in for Google's REST API with it.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { startHttpServer, type TestServer } from '../support/http-server.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let google: TestServer;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
let keyText: string;
const base = '/api/v1/projects/demo';

beforeAll(async () => {
  dir = await tempDir('document');
  google = await startHttpServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    if (request.url === '/token')
      return response.end(JSON.stringify({ access_token: 'ya29.t', expires_in: 3600 }));
    response.end(
      JSON.stringify([
        {
          document: {
            name: 'projects/shop-prod-123/databases/(default)/documents/orders/ord-9',
            fields: { total: { integerValue: '500' } },
          },
        },
      ]),
    );
  });
  keyText = JSON.stringify({
    type: 'service_account',
    client_email: 'dogu@shop-prod-123.iam.gserviceaccount.com',
    private_key: generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    }).privateKey,
    token_uri: `${google.url}/token`,
  });
  runtime = await startTestRuntime(dir.path);
  api = apiClient(runtime, await loginToken(runtime));
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await google?.close();
});

describe('document databases through the API', () => {
  it('keeps the key write-only, tests the connection and runs a query', async () => {
    const saved = await api.put(`${base}/data-sources/shop-docs`, {
      id: 'shop-docs',
      name: 'Shop documents',
      kind: 'firestore',
      environments: {
        development: {
          mode: 'document',
          projectId: 'shop-prod-123',
          serviceAccountKey: keyText,
          apiEndpoint: google.url,
        },
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const read = await api.get(`${base}/data-sources/shop-docs`);
    expect(JSON.stringify(read.body)).not.toContain('PRIVATE KEY');
    expect(read.body.environments.development.hasServiceAccountKey).toBe(true);
    const check = await api.post(
      `${base}/data-sources/shop-docs/environments/development/test-connection`,
      {},
    );
    expect(check.body.ok, JSON.stringify(check.body)).toBe(true);

    const action = await api.put(`${base}/actions/big-orders`, {
      id: 'big-orders',
      name: 'Big orders',
      kind: 'document',
      dataSourceId: 'shop-docs',
      parameters: [{ name: 'min', kind: 'number', label: 'Minimum', required: true }],
      code: 'const snap = await db.collection("orders").where("total", ">=", {{ min }}).get();\nreturn snap.docs.map((d) => ({ id: d.id, ...d.data() }));',
    });
    expect(action.status, JSON.stringify(action.body)).toBe(201);
    const run = await api.execute('big-orders', { min: 100 });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.results[0].rows).toEqual([{ id: 'ord-9', total: 500 }]);
    const query = google.requests.filter((r) => r.url.endsWith(':runQuery')).at(-1)!;
    expect(JSON.parse(query.body.toString()).structuredQuery.where.fieldFilter.value).toEqual({
      integerValue: '100',
    });
  });

  it('refuses a data source whose key is not a service-account key', async () => {
    const saved = await api.put(`${base}/data-sources/bad-docs`, {
      id: 'bad-docs',
      name: 'Bad',
      kind: 'firestore',
      environments: { development: { projectId: 'shop-prod-123', serviceAccountKey: '{"nope":1}' } },
    });
    expect(saved.status).toBe(422);
    expect(JSON.stringify(saved.body)).toContain('service account');
  });
});
