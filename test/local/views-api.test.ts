/**
 * Views through the real HTTP API of an embedded runtime: the seeded demo views, saving with
 * references checked (en/ja field errors), versions, publish and rollback per environment, copy,
 * delete, who may see a view, runs recorded with their view, and the audit entries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import type { Role } from '../../shared/domain/roles.ts';
import { apiClient } from '../support/api.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let database: TestDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
let adminToken: string;
const people = new Map<Role | 'outsider', ReturnType<typeof apiClient>>();
const p = '/api/v1/projects/demo';

beforeAll(async () => {
  dir = await tempDir('views');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url });
  adminToken = await loginToken(runtime);
  api = apiClient(runtime, adminToken);
  for (const role of ['member', 'operations_lead', 'developer', 'outsider'] as const) {
    const id = `usr_view_${role}`;
    if (role !== 'outsider')
      await runtime.services.store.putMembership({ projectId: 'demo', principalId: id, role });
    const { token } = await runtime.services.tokens.issue(
      { kind: 'user', id, email: `${role}@example.com`, name: role },
      3600,
    );
    people.set(role, apiClient(runtime, token));
  }
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await database?.drop();
});

const visual = (id: string, overrides: Record<string, unknown> = {}) => ({
  id,
  name: `View ${id}`,
  definition: {
    kind: 'visual',
    parameters: [{ name: 'status', kind: 'text', default: 'paid' }],
    queries: [
      {
        id: 'orders',
        actionId: 'list-orders',
        arguments: { status: 'panel.args.status', limit: '5' },
        runOn: 'load',
      },
    ],
    layout: {
      id: 'root',
      type: 'grid',
      columns: 1,
      children: [
        { id: 'heading', type: 'markdown', content: '# Orders' },
        { id: 'table', type: 'table', query: 'orders' },
      ],
    },
  },
  ...overrides,
});

const problemsOf = (body: { errors?: { pointer: string; detail: string; ja?: string }[] }) =>
  Object.fromEntries((body.errors ?? []).map((e) => [e.pointer, e]));

describe('the seeded demo views', () => {
  it('lists the visual orders view, the code dashboard and the operations dashboard in its group', async () => {
    const list = await api.get(`${p}/views`);
    expect(list.status).toBe(200);
    const byId = Object.fromEntries(list.body.data.map((v: { id: string }) => [v.id, v]));
    expect(byId.orders).toMatchObject({ name: 'Orders', kind: 'visual', version: 1 });
    expect(byId['sales-dashboard']).toMatchObject({ kind: 'code', version: 1 });
    expect(byId['operations-dashboard']).toMatchObject({ kind: 'visual', version: 1, groupId: 'operations' });
    expect(byId.orders.definition).toBeUndefined();
    // The dashboard is published to the protected production like the rest of the demo.
    const resolved = await api.get(`${p}/environments/production/views/operations-dashboard`);
    expect(resolved.body).toMatchObject({ published: true, version: 1 });
  });

  it('resolves the code view for an environment with its compiled module', async () => {
    const resolved = await api.get(`${p}/environments/production/views/sales-dashboard`);
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({
      view: { id: 'sales-dashboard', name: 'Sales dashboard' },
      environmentId: 'production',
      version: 1,
      // The demo publishes its views to its protected production.
      published: true,
      protected: true,
      definition: { kind: 'code', actionIds: ['sales-report'] },
    });
    const { code } = resolved.body.compiled;
    expect(code).toContain('from "react/jsx-runtime"');
    expect(code).toContain("from 'dogu'");
    expect(code).toContain('export default function SalesDashboard');
    expect(code).not.toMatch(/<main>|type Row/);
  });

  it('runs the actions of the orders view: search a page, the detail, mark shipped', async () => {
    const view = (await api.get(`${p}/views/orders`)).body;
    const [search, detail] = view.definition.queries;
    expect(search.paging).toEqual({ limitParameter: 'limit', offsetParameter: 'offset', pageSize: 20 });
    const page = await api.execute(search.actionId, { customer: '', status: 'paid', limit: 3, offset: 3 });
    expect(page.status).toBe(200);
    expect(page.body.results[0].rows).toHaveLength(3);
    const orderId = page.body.results[0].rows[0].id;
    expect((await api.execute(detail.actionId, { order_id: orderId })).body.results[0].rows[0]).toMatchObject(
      {
        id: orderId,
        status: 'paid',
      },
    );
    const shipped = await api.execute('mark-shipped', { order_id: orderId });
    expect(shipped.body.results[0].rows).toEqual([{ id: orderId, status: 'shipped' }]);
    expect((await api.execute('order-detail', { order_id: orderId })).body.results[0].rows[0].status).toBe(
      'shipped',
    );
  });
});

describe('the operations dashboard (seeded)', () => {
  it('is listed with its actions in the Operations group, and its actions answer what its components show', async () => {
    const group = (await api.get(`${p}/action-groups/operations`)).body;
    expect(group.actionIds).toEqual(['orders-per-day', 'revenue-by-status', 'lookup-orders', 'update-order']);

    const perDay = (await api.execute('orders-per-day', {})).body.results[0].rows;
    expect(perDay[0]).toEqual({ day: expect.stringMatching(/^2026-03-\d\d$/), orders: expect.any(Number) });
    expect(perDay.reduce((sum: number, row: { orders: number }) => sum + row.orders, 0)).toBe(300);
    const byStatus = (await api.execute('revenue-by-status', {})).body.results[0].rows;
    expect(byStatus.map((row: { status: string }) => row.status)).toEqual([
      'cancelled',
      'delivered',
      'paid',
      'pending',
      'shipped',
    ]);

    // The search: every match counted in each row (count(*) over ()), a page at a time.
    const all = (await api.execute('lookup-orders', { limit: 20, offset: 280 })).body.results[0].rows;
    expect(all).toHaveLength(20);
    expect(all[0].total_count).toBe(300);
    const some = (await api.execute('lookup-orders', { q: 'customer 7', limit: 20, offset: 0 })).body
      .results[0].rows;
    expect(some.length).toBeGreaterThan(0);
    expect(some.every((row: { customer: string }) => row.customer === 'Customer 7')).toBe(true);
    expect(some[0].total_count).toBe(some.length);
    const byNumber = (await api.execute('lookup-orders', { q: '250', limit: 20, offset: 0 })).body.results[0]
      .rows;
    expect(byNumber.map((row: { id: number }) => row.id)).toEqual([250]);

    const updated = await api.execute('update-order', {
      order_id: 250,
      status: 'delivered',
      total_yen: 4321,
    });
    expect(updated.body.results[0].rows).toEqual([{ id: 250, status: 'delivered', total_yen: 4321 }]);
    const refused = await api.execute('update-order', { order_id: 250, status: 'lost', total_yen: -1 });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      '#/arguments/status',
      '#/arguments/total_yen',
    ]);
  });
});

describe('saving a view', () => {
  it('creates (201), replaces (200) with If-Match, and refuses a stale If-Match (409)', async () => {
    const created = await api.put(`${p}/views/v-save`, visual('v-save'));
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe('"1"');
    expect(created.body).toMatchObject({ id: 'v-save', version: 1, projectId: 'demo' });
    const replaced = await api.put(`${p}/views/v-save`, visual('v-save', { name: 'Renamed' }), {
      'if-match': '"1"',
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.version).toBe(2);
    const stale = await api.put(`${p}/views/v-save`, visual('v-save'), { 'if-match': '"1"' });
    expect(stale.status).toBe(409);
    expect((await api.get(`${p}/views/v-save`)).body.name).toBe('Renamed');
  });

  it('refuses unknown actions, queries, views, parameters and groups, naming each field in en and ja', async () => {
    const bad = visual('v-bad');
    const definition = bad.definition as {
      queries: Record<string, unknown>[];
      layout: { children: Record<string, unknown>[] };
    };
    definition.queries.push({ id: 'nope', actionId: 'no-such-action', arguments: {}, runOn: 'manual' });
    (definition.queries[0]!.arguments as Record<string, string>).colour = "'red'";
    definition.layout.children.push(
      { id: 'other', type: 'table', query: 'missing' },
      {
        id: 'go',
        type: 'button',
        label: 'Go',
        events: [
          { type: 'navigate', to: { view: 'no-such-view' } },
          {
            type: 'runAction',
            actionId: 'list-orders',
            arguments: {},
            onSuccess: [{ type: 'runQuery', query: 'gone' }],
          },
        ],
      },
      { id: 'form1', type: 'form', fromAction: 'nothing-here', submit: [] },
    );
    const response = await api.put(`${p}/views/v-bad`, { ...bad, groupId: 'no-group' });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('invalid_definition');
    const problems = problemsOf(response.body);
    expect(Object.keys(problems).sort()).toEqual(
      [
        '#/definition/queries/1/actionId',
        '#/definition/queries/0/arguments/colour',
        '#/definition/layout/children/2/query',
        '#/definition/layout/children/3/events/0/to/view',
        '#/definition/layout/children/3/events/1/onSuccess/0/query',
        '#/definition/layout/children/4/fromAction',
        '#/groupId',
      ].sort(),
    );
    expect(problems['#/definition/queries/1/actionId']).toMatchObject({
      detail: "no action 'no-such-action' in this project",
      ja: "このプロジェクトにアクション 'no-such-action' はありません",
    });
    expect(problems['#/definition/layout/children/2/query']!.detail).toBe("no query 'missing' in this view");
    expect(problems['#/definition/queries/0/arguments/colour']!.ja).toContain('colour');
    expect((await api.get(`${p}/views/v-bad`)).status).toBe(404);
  });

  it('refuses an expression that does not parse and a query the view lacks, naming field, line and column', async () => {
    const bad = visual('v-expr');
    const definition = bad.definition as {
      queries: { arguments: Record<string, string> }[];
      layout: { children: Record<string, unknown>[] };
    };
    definition.queries[0]!.arguments.status = 'panel.args.status +';
    definition.layout.children.push({
      id: 'count',
      type: 'text',
      content: 'Found {{ queries.order.rows.length }}',
    });
    const response = await api.put(`${p}/views/v-expr`, bad);
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.body.code).toBe('invalid_definition');
    expect(response.body.errors).toEqual([
      {
        pointer: '#/definition/queries/0/arguments/status',
        detail: 'syntax error in the expression at line 1, column 20: Expected expression after +',
        ja: '式の 1 行 20 列で構文エラー: Expected expression after +',
        line: 1,
        column: 20,
      },
      {
        pointer: '#/definition/layout/children/2/content',
        detail: "uses queries.order, but this view has no query 'order'",
        ja: "queries.order を使っていますが、このビューにクエリ 'order' はありません",
      },
    ]);
    expect((await api.get(`${p}/views/v-expr`)).status).toBe(404);
  });

  it('refuses a 3,990-deep unary chain with the same 422 in 20 of 20 tries, and deep chains of other kinds', async () => {
    const deepDetail =
      'syntax error in the expression at line 1, column 1: The expression nests more than 200 levels deep';
    const withArgument = (text: string) => {
      const view = visual('v-unary');
      (view.definition as { queries: { arguments: Record<string, string> }[] }).queries[0]!.arguments.status =
        text;
      return view;
    };
    const chain = `${'!'.repeat(3990)}true`;
    const answers: number[] = [];
    for (let i = 0; i < 20; i++) {
      const response = await api.put(`${p}/views/v-unary`, withArgument(chain));
      answers.push(response.status);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(problemsOf(response.body)['#/definition/queries/0/arguments/status']).toEqual({
        pointer: '#/definition/queries/0/arguments/status',
        detail: deepDetail,
        ja: '式の 1 行 1 列で構文エラー: 式の入れ子が 200 段を超えています',
        line: 1,
        column: 1,
      });
    }
    expect(answers).toEqual(Array(20).fill(422));
    // Chains jsep builds in a loop or by recursion, in an expression, a template hole and a transformer
    // (each short enough for its `{{ }}` to fit a field's 4,000 characters).
    const others = [
      `a${'.b'.repeat(1990)}`,
      Array.from({ length: 1300 }, () => '1').join('**'),
      `${'a?a:'.repeat(990)}a`,
      `${'r=>'.repeat(1320)}r`,
      `${'-('.repeat(1320)}1${')'.repeat(1320)}`,
    ];
    for (const text of others) {
      const view = withArgument(text);
      (view.definition.layout.children as Record<string, unknown>[]).push({
        id: 'deep',
        type: 'text',
        content: `{{ ${text} }}`,
      });
      (view.definition.queries[0] as Record<string, unknown>).transformer = text;
      const response = await api.put(`${p}/views/v-unary`, view);
      expect(response.status, text.slice(0, 20)).toBe(422);
      const problems = problemsOf(response.body);
      expect(Object.keys(problems), JSON.stringify(response.body).slice(0, 600)).toHaveLength(3);
      expect(problems['#/definition/queries/0/arguments/status']!.detail).toBe(deepDetail);
      expect(problems['#/definition/queries/0/transformer']!.detail).toBe(deepDetail);
      expect(problems['#/definition/layout/children/2/content']!.detail).toBe(
        'syntax error in the expression at line 1, column 3: The expression nests more than 200 levels deep',
      );
    }
    expect((await api.get(`${p}/views/v-unary`)).status).toBe(404);
  });

  it('refuses a code view calling an unknown action, with a syntax error (line and column) or a foreign import', async () => {
    const code = (source: string, actionIds: string[] = ['list-orders']) => ({
      id: 'v-code',
      name: 'Code',
      definition: { kind: 'code', parameters: [], source, actionIds },
    });
    const unknown = await api.put(`${p}/views/v-code`, code('export default () => <p/>;', ['ghost']));
    expect(problemsOf(unknown.body)['#/definition/actionIds/0']!.detail).toBe(
      "no action 'ghost' in this project",
    );

    const syntax = await api.put(
      `${p}/views/v-code`,
      code('export default function V() {\n  return <div>;\n}\n'),
    );
    expect(syntax.status).toBe(422);
    const problem = problemsOf(syntax.body)['#/definition/source']!;
    expect(problem).toMatchObject({ line: 2, column: expect.any(Number) });
    expect(problem.detail).toMatch(/^syntax error at line 2, column \d+/);
    expect(problem.ja).toMatch(/^2 行 \d+ 列で構文エラー/);

    const foreign = await api.put(
      `${p}/views/v-code`,
      code("import fs from 'node:fs';\nexport default () => <p>{String(fs)}</p>;"),
    );
    expect(problemsOf(foreign.body)['#/definition/source']!.detail).toContain("imports 'node:fs'");

    const noDefault = await api.put(`${p}/views/v-code`, code('export const V = () => <p/>;'));
    expect(problemsOf(noDefault.body)['#/definition/source']!.detail).toContain('no default export');
    expect((await api.put(`${p}/views/v-code`, code('export default () => <p>ok</p>;'))).status).toBe(201);
  });

  it('refuses a source over 128 KiB, components nested deeper than 20, and absurd nesting before parsing', async () => {
    const big = await api.put(`${p}/views/v-big`, {
      id: 'v-big',
      name: 'Big',
      definition: {
        kind: 'code',
        parameters: [],
        source: `export default () => null;\n//${'x'.repeat(130 * 1024)}`,
        actionIds: [],
      },
    });
    expect(big.status).toBe(422);
    expect(problemsOf(big.body)['#/definition/source']!.detail).toMatch(/at most 131072/);

    const nest = (depth: number): Record<string, unknown> =>
      depth === 1
        ? { id: `c${depth}`, type: 'text', content: 'leaf' }
        : { id: `c${depth}`, type: 'grid', columns: 1, children: [nest(depth - 1)] };
    const deep = (depth: number) => ({
      id: 'v-deep',
      name: 'Deep',
      definition: { kind: 'visual', parameters: [], queries: [], layout: nest(depth) },
    });
    expect((await api.put(`${p}/views/v-deep`, deep(20))).status).toBe(201);
    const tooDeep = await api.put(`${p}/views/v-deep`, deep(21));
    expect(tooDeep.status).toBe(422);
    const pointer = `#/definition/layout${'/children/0'.repeat(20)}`;
    expect(problemsOf(tooDeep.body)[pointer]!.detail).toBe('components nest deeper than 20 levels');
    // 20,000 levels (JSON.stringify itself would overflow on it): refused before any recursive parse.
    const levels = 20_000;
    const text = `{"id":"v-deep","name":"Deep","definition":{"kind":"visual","layout":${'{"id":"g","type":"grid","columns":1,"children":['.repeat(levels)}{"id":"t","type":"text","content":"x"}${']}'.repeat(levels)}}}`;
    const absurd = await fetch(`${runtime.url}${p}/views/v-deep`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: text,
    });
    expect(absurd.status).toBe(422);
    const absurdBody = (await absurd.json()) as { errors: { pointer: string; ja: string }[] };
    expect(absurdBody.errors[0]).toMatchObject({ pointer: '#/definition/layout' });
    expect((await api.get(`${p}/views/v-deep`)).body.version).toBe(1);
  });

  it('refuses a body that does not fit the schema with the field path', async () => {
    const bad = visual('v-shape');
    (bad.definition.layout.children as Record<string, unknown>[]).push({
      id: 'b',
      type: 'button',
      events: [],
    });
    const response = await api.put(`${p}/views/v-shape`, bad);
    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(
      '#/definition/layout/children/2/label',
    );
  });
});

describe('versions, publications and copies', () => {
  it('shows each environment its published version, rolls back; a protected one shows nothing unpublished', async () => {
    await api.put(`${p}/views/v-pub`, visual('v-pub', { name: 'First' }));
    expect((await api.get(`${p}/environments/production/views/v-pub`)).status).toBe(409);
    await api.put(`${p}/views/v-pub`, visual('v-pub', { name: 'Second' }), {});
    const published = await api.put(`${p}/views/v-pub/publications/production`, { version: 1 });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ version: 1, previousVersion: null, environmentId: 'production' });
    await api.put(`${p}/views/v-pub`, visual('v-pub', { name: 'Third' }));

    const shown = async (environmentId: string) =>
      (await api.get(`${p}/environments/${environmentId}/views/v-pub`)).body;
    expect(await shown('production')).toMatchObject({
      version: 1,
      latestVersion: 3,
      published: true,
      view: { name: 'First' },
    });
    expect(await shown('development')).toMatchObject({
      version: 3,
      published: false,
      view: { name: 'Third' },
    });

    expect(
      (await api.put(`${p}/views/v-pub/publications/production`, { version: 3 })).body.previousVersion,
    ).toBe(1);
    expect((await shown('production')).view.name).toBe('Third');
    // Rolling back is publishing an earlier version.
    await api.put(`${p}/views/v-pub/publications/production`, { version: 2 });
    expect((await shown('production')).view.name).toBe('Second');

    const versions = await api.get(`${p}/views/v-pub/versions`);
    expect(versions.body.latest).toBe(3);
    expect(versions.body.versions.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    expect(versions.body.publications).toEqual([
      expect.objectContaining({ environmentId: 'production', version: 2 }),
    ]);
    expect((await api.get(`${p}/views/v-pub/versions/1`)).body.definition.name).toBe('First');
    expect((await api.get(`${p}/views/v-pub/versions/9`)).status).toBe(404);
    expect((await api.put(`${p}/views/v-pub/publications/production`, { version: 9 })).status).toBe(404);
    expect((await api.put(`${p}/views/v-pub/publications/nowhere`, { version: 1 })).status).toBe(404);

    expect((await api.delete(`${p}/views/v-pub/publications/production`)).status).toBe(204);
    // Production is protected: with nothing published it shows nothing, and says what to do.
    const unpublished = await api.get(`${p}/environments/production/views/v-pub`);
    expect(unpublished.status).toBe(409);
    expect(unpublished.body).toMatchObject({ reason: 'not_published', viewId: 'v-pub', latestVersion: 3 });
    expect(unpublished.body.detail).toContain(
      "View 'v-pub' has no version published to environment 'production'",
    );
    expect((await api.delete(`${p}/views/v-pub/publications/production`)).status).toBe(404);
  });

  it('copies a view into this project and into another one where its actions exist', async () => {
    await api.put(`${p}/views/v-src`, visual('v-src'));
    const copy = await api.post(`${p}/views/v-src/copy`, { id: 'v-copy' });
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ id: 'v-copy', name: 'View v-src (copy)', version: 1 });
    expect((await api.post(`${p}/views/v-src/copy`, { id: 'v-copy' })).status).toBe(409);

    expect((await api.put('/api/v1/projects/other-views', { id: 'other-views', name: 'Other' })).status).toBe(
      201,
    );
    const across = await api.post(`${p}/views/v-src/copy`, { id: 'v-there', projectId: 'other-views' });
    expect(across.status).toBe(422);
    expect(problemsOf(across.body)['#/definition/queries/0/actionId']!.detail).toBe(
      "no action 'list-orders' in this project",
    );
    const code = await api.post(`${p}/views/sales-dashboard/copy`, { id: 'dash', projectId: 'other-views' });
    expect(code.status).toBe(422);
    const simple = {
      id: 'plain',
      name: 'Plain',
      definition: { kind: 'visual', layout: { id: 'r', type: 'text', content: 'hi' } },
    };
    await api.put(`${p}/views/plain`, simple);
    const moved = await api.post(`${p}/views/plain/copy`, {
      id: 'plain',
      name: 'Plain there',
      projectId: 'other-views',
    });
    expect(moved.status).toBe(201);
    expect((await api.get('/api/v1/projects/other-views/views/plain')).body).toMatchObject({
      name: 'Plain there',
      projectId: 'other-views',
    });
    // Into a project the caller is not a member of: refused.
    const outsider = people.get('developer')!;
    expect(
      (await outsider.post(`${p}/views/plain/copy`, { id: 'plain2', projectId: 'other-views' })).status,
    ).toBe(403);
  });

  it('deletes a view with its versions and publications; a new view of that id starts at version 1', async () => {
    await api.put(`${p}/views/v-del`, visual('v-del'));
    await api.put(`${p}/views/v-del`, visual('v-del'));
    await api.put(`${p}/views/v-del/publications/production`, { version: 1 });
    expect((await api.delete(`${p}/views/v-del`)).status).toBe(204);
    expect((await api.get(`${p}/views/v-del`)).status).toBe(404);
    expect((await api.get(`${p}/environments/production/views/v-del`)).status).toBe(404);
    expect((await api.delete(`${p}/views/v-del`)).status).toBe(404);
    const again = await api.put(`${p}/views/v-del`, visual('v-del', { name: 'Again' }));
    expect(again.body.version).toBe(1);
    expect((await api.get(`${p}/views/v-del/versions`)).body.versions).toHaveLength(1);
    // The old publication went with the view: the protected production shows the new one only once published.
    expect((await api.get(`${p}/environments/production/views/v-del`)).status).toBe(409);
    expect((await api.get(`${p}/environments/development/views/v-del`)).body.published).toBe(false);
  });
});

describe('who may see a view', () => {
  it('filters lists, answers 403 for a restricted view and 404 for an unknown one; editors see everything', async () => {
    await api.put(
      `${p}/views/v-ops`,
      visual('v-ops', { permission: { mode: 'restricted', roles: ['operations_lead'] } }),
    );
    const member = people.get('member')!;
    const ops = people.get('operations_lead')!;
    const developer = people.get('developer')!;
    const ids = async (who: ReturnType<typeof apiClient>) =>
      (await who.get(`${p}/views`)).body.data.map((v: { id: string }) => v.id);
    expect(await ids(member)).not.toContain('v-ops');
    expect(await ids(member)).toContain('orders');
    expect(await ids(ops)).toContain('v-ops');
    expect(await ids(developer)).toContain('v-ops');
    expect((await member.get(`${p}/views/v-ops`)).status).toBe(403);
    expect((await member.get(`${p}/environments/development/views/v-ops`)).status).toBe(403);
    expect((await member.get(`${p}/views/v-ops/versions`)).status).toBe(403);
    expect((await member.get(`${p}/views/ghost`)).status).toBe(404);
    expect((await ops.get(`${p}/environments/development/views/v-ops`)).status).toBe(200);
    expect((await people.get('outsider')!.get(`${p}/views`)).status).toBe(403);
    // Viewing is not editing.
    expect((await ops.put(`${p}/views/v-ops`, visual('v-ops'))).status).toBe(403);
    expect((await member.put(`${p}/views/v-ops/publications/production`, { version: 1 })).status).toBe(403);
    expect((await developer.put(`${p}/views/v-ops/publications/production`, { version: 1 })).status).toBe(
      403,
    );
  });

  it('judges a published version by its own permission', async () => {
    await api.put(`${p}/views/v-env`, visual('v-env'));
    await api.put(`${p}/views/v-env/publications/production`, { version: 1 });
    await api.put(
      `${p}/views/v-env`,
      visual('v-env', { permission: { mode: 'restricted', users: ['nobody@example.com'] } }),
    );
    const member = people.get('member')!;
    expect((await member.get(`${p}/environments/production/views/v-env`)).status).toBe(200);
    expect((await member.get(`${p}/environments/development/views/v-env`)).status).toBe(403);
  });
});

describe('running actions from a view', () => {
  const run = (who: ReturnType<typeof apiClient>, actionId: string, body: Record<string, unknown>) =>
    who.request(
      'POST',
      `/public/v1/projects/demo/environments/development/actions/${actionId}/executions`,
      body,
    );

  it('records the view on the execution and in the audit log', async () => {
    const response = await run(api, 'list-orders', {
      arguments: { status: 'paid', limit: 1 },
      source: { viewId: 'orders' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ via: 'view', source: { viewId: 'orders' } });
    const stored = await api.get(
      `/public/v1/projects/demo/environments/development/executions/${response.body.id}`,
    );
    expect(stored.body.source).toEqual({ viewId: 'orders' });
    const audit = await api.get(`${p}/audit-log?event=execution.run`);
    const entry = audit.body.data.find(
      (e: { details?: { executionId?: string } }) => e.details?.executionId === response.body.id,
    );
    expect(entry.details.source).toEqual({ viewId: 'orders' });
  });

  it('grants nothing: the viewer still needs the action, and a gated action opens a review request with the view', async () => {
    const member = people.get('member')!;
    await api.put(`${p}/actions/ops-only`, {
      id: 'ops-only',
      name: 'Ops only',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      permission: { mode: 'restricted', roles: ['operations_lead'] },
      statements: [{ title: 't', sql: 'SELECT 1 AS one' }],
    });
    const refused = await run(member, 'ops-only', { arguments: {}, source: { viewId: 'orders' } });
    expect(refused.status).toBe(403);

    await api.put(`${p}/actions/gated`, {
      id: 'gated',
      name: 'Gated',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      review: { required: true },
      statements: [{ title: 't', sql: 'SELECT 1 AS one' }],
    });
    const requested = await run(member, 'gated', { arguments: {}, source: { viewId: 'orders' } });
    expect(requested.status).toBe(202);
    expect(requested.body.reviewRequest.source).toEqual({ viewId: 'orders' });
    const approved = await people
      .get('operations_lead')!
      .post(`${p}/review-requests/${requested.body.reviewRequest.id}/approve`, {});
    expect(approved.status).toBe(200);
    const execution = await api.get(
      `/public/v1/projects/demo/environments/development/executions/${approved.body.execution.id}`,
    );
    expect(execution.body).toMatchObject({ via: 'review', source: { viewId: 'orders' } });
  });

  it('refuses a malformed source, an unknown view, a view the caller may not see, and source with async', async () => {
    const member = people.get('member')!;
    const malformed = await run(api, 'list-orders', {
      arguments: { status: 'paid' },
      source: { viewId: 'Bad Id!' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].pointer).toBe('#/source');
    expect((await run(api, 'list-orders', { arguments: { status: 'paid' }, source: 'orders' })).status).toBe(
      400,
    );
    expect(
      (await run(api, 'list-orders', { arguments: { status: 'paid' }, source: { viewId: 'ghost' } })).status,
    ).toBe(404);
    await api.put(
      `${p}/views/v-hidden`,
      visual('v-hidden', { permission: { mode: 'restricted', users: [] } }),
    );
    expect(
      (await run(member, 'list-orders', { arguments: { status: 'paid' }, source: { viewId: 'v-hidden' } }))
        .status,
    ).toBe(403);
    const async = await run(api, 'list-orders', {
      arguments: { status: 'paid' },
      source: { viewId: 'orders' },
      async: true,
    });
    expect(async.status).toBe(400);
  });
});

describe('audit', () => {
  it('records saves, publications, copies and deletions of views', async () => {
    await api.put(`${p}/views/v-aud`, visual('v-aud'));
    await api.put(`${p}/views/v-aud/publications/production`, { version: 1 });
    await api.post(`${p}/views/v-aud/copy`, { id: 'v-aud-2' });
    await api.delete(`${p}/views/v-aud/publications/production`);
    await api.delete(`${p}/views/v-aud`);
    const audit = await api.get(`${p}/audit-log?event=view.&target=v-aud`);
    expect(audit.status).toBe(200);
    expect(audit.body.data.map((e: { event: string }) => e.event).reverse()).toEqual([
      'view.save',
      'view.publish',
      'view.copy',
      'view.unpublish',
      'view.delete',
    ]);
    expect(audit.body.data.at(-1)).toMatchObject({
      target: { type: 'view', id: 'v-aud' },
      details: { version: 1 },
    });
  });
});
