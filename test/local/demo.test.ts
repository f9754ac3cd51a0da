/**
 * The demo as `npm start` seeds it, on the embedded PGlite database: every demo
 * action runs with its defaults, the kinds bind as documented, media and the
 * HTTP data source with its authentication action work offline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  demoGrpcActions,
  demoHttpActions,
  demoScriptActions,
  demoSqlActions,
} from '../../local/demo-definitions.ts';
import type { LocalRuntime } from '../../local/runtime.ts';
import { openPostgresConnector } from '../../shared/connectors/postgresql/postgres-connector.ts';
import { PooledConnectorFactory } from '../../shared/connectors/sql/connector-factory.ts';
import { DoguError } from '../../shared/domain/errors.ts';
import { apiClient } from '../support/api.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  dir = await tempDir('demo');
  // The real first start, initdb included (other files copy the initialized directory: 0135).
  runtime = await startTestRuntime(dir.path, {}, { demoDatabaseTemplate: false });
  api = apiClient(runtime, await loginToken(runtime));
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

describe('the demo', () => {
  it.each(
    [...demoSqlActions, ...demoHttpActions, ...demoGrpcActions, ...demoScriptActions].map(
      (a) => [a.id, a] as const,
    ),
  )('%s runs with its defaults', async (id, action) => {
    const required: Record<string, Record<string, unknown>> = { 'shipment-status': { order_id: 42 } };
    const run = await api.execute(id, required[id] ?? {});
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.results).toHaveLength(
      action.kind === 'sql' ? (action.statements as unknown[]).length : 1,
    );
  });

  it('grpc-get-order and grpc-list-orders: the demo gRPC service through reflection, int64 exact', async () => {
    const order = await api.execute('grpc-get-order', { order_id: 'ord-1002', include_items: true });
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    expect(order.body.results[0].rows[0]).toMatchObject({ id: 'ord-1002', totalCents: '9007199254740993' });
    const list = await api.execute('grpc-list-orders', { customer: 'ann@example.com' });
    expect(list.body.results[0].rows.map((r: { id: string }) => r.id)).toEqual(['ord-1001', 'ord-1003']);
    const missing = await api.execute('grpc-get-order', { order_id: 'ord-9999' });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toContain('gRPC status NOT_FOUND (5)');
  });

  it('orders-digest: a JavaScript action sums the rows of find-orders, run as a nested execution', async () => {
    const digest = await api.execute('orders-digest', {});
    expect(digest.status, JSON.stringify(digest.body)).toBe(200);
    const rows = digest.body.results[0].rows as { status: string; orders: number }[];
    expect(rows.length).toBeGreaterThan(0);
    const direct = await api.execute('find-orders', {
      since: '2026-03-01',
      statuses: ['paid', 'shipped', 'delivered'],
    });
    expect(rows.reduce((sum, row) => sum + row.orders, 0)).toBe(direct.body.results[0].rowCount);
    expect(digest.body.results[0].logs[0].message).toContain('find-orders returned');
    expect(digest.body.nestedExecutionIds).toHaveLength(1);
  });

  it('find-orders: array IN list, boolean, date and sort column behave', async () => {
    const run = await api.execute('find-orders', {
      statuses: ['Shipped'],
      min_total: 20000,
      large_only: true,
      sort_by: 'Total',
      limit: 5,
    });
    const rows = run.body.results[0].rows as { status: string; total_yen: number }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.status).toBe('shipped');
      expect(row.total_yen).toBeGreaterThanOrEqual(20000);
    }
    const totals = rows.map((r) => r.total_yen);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    const refused = await api.execute('find-orders', { sort_by: 'total_yen; DROP TABLE orders' });
    expect(refused.status).toBe(422);
  });

  it('sales-report: three statements, the variable and the caller', async () => {
    const run = await api.execute('sales-report', { top: 3 });
    const [report, byStatus, top] = run.body.results;
    expect(report.rows[0]).toMatchObject({
      title: 'Development sales report',
      requested_by: 'admin@dogu.local',
    });
    expect(byStatus.rows).toHaveLength(5);
    expect(top.rows).toHaveLength(3);
    const production = await api.execute('sales-report', {}, 'production');
    expect(production.body.results[0].rows[0].title).toBe('Production sales report');
  });

  it('product-gallery: image, video and PDF columns are marked as media', async () => {
    const run = await api.execute('product-gallery', {});
    const columns = run.body.results[0].columns as { name: string; media?: string }[];
    expect(columns.find((c) => c.name === 'image_url')?.media).toBe('image');
    expect(columns.find((c) => c.name === 'video_url')?.media).toBe('video');
    expect(columns.find((c) => c.name === 'sheet_url')?.media).toBe('pdf');
  });

  it('product-gallery: every media URL is served by this runtime, no internet needed', async () => {
    const run = await api.execute('product-gallery', {});
    const rows = run.body.results[0].rows as Record<string, string | null>[];
    const urls = rows
      .flatMap((row) => [row.image_url, row.video_url, row.sheet_url])
      .filter(Boolean) as string[];
    expect(urls).toHaveLength(5 + 3 + 5);
    const signatures = { 'image/png': '\x89PNG', 'video/webm': '\x1aE\xdf\xa3', 'application/pdf': '%PDF' };
    for (const url of urls) {
      expect(url.startsWith(`${runtime.url}/demo-api/v1/media/`), url).toBe(true);
      const response = await fetch(url);
      expect(response.status, url).toBe(200);
      const type = response.headers.get('content-type') as keyof typeof signatures;
      expect(Object.keys(signatures)).toContain(type);
      const head = Buffer.from(await response.arrayBuffer())
        .subarray(0, 4)
        .toString('latin1');
      expect(head, url).toBe(signatures[type]);
    }
    expect((await fetch(`${runtime.url}/demo-api/v1/media/sku-0002.webm`)).status).toBe(404);
    expect((await fetch(`${runtime.url}/demo-api/v1/media/..%2Fruntime.ts`)).status).toBe(404);
  });

  it('exchange-rates: the HTTP data source logs in and sends the key', async () => {
    const run = await api.execute('exchange-rates', { base: 'USD' });
    const rows = run.body.results[0].rows as { base: string; currency: string; rate: number }[];
    expect(rows.find((r) => r.currency === 'USD')).toEqual({ base: 'USD', currency: 'USD', rate: 1 });
    expect(rows).toHaveLength(5);
  });
});

// Last: it ends the demo database's thread, and with it every session open on it.
describe('the embedded demo database at the time limit (decision 0076)', () => {
  it('ends the query at the limit and answers the next one at once, its data kept', async () => {
    // PGlite cannot interrupt a query: the relay in front of it ends its thread on the connector's
    // CancelRequest and starts a fresh one. Before, `pg_sleep(70)` held the whole runtime for 70 s.
    const factory = new PooledConnectorFactory(2, { postgresql: openPostgresConnector });
    try {
      const connector = factory.sql('postgresql', 'demo/limit', runtime.demo.database);
      const started = Date.now();
      const error = await connector
        .run(
          { title: 'sleep', text: 'SELECT pg_sleep(30)', values: [] },
          { signal: AbortSignal.timeout(1_000) },
        )
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(DoguError);
      expect((error as DoguError).code).toBe('execution_timeout');
      expect(Date.now() - started).toBeLessThan(3_500);
      const after = Date.now();
      const run = await api.execute('find-orders', {});
      expect(run.status, JSON.stringify(run.body)).toBe(200);
      expect(run.body.results[0].rowCount).toBeGreaterThan(0);
      expect(Date.now() - after).toBeLessThan(10_000);
    } finally {
      await factory.close();
    }
  });
});
