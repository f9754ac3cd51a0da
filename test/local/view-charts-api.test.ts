/**
 * Chart components saved through the real HTTP API (issue 29): a chart whose kind, fields,
 * query, events or expression are wrong is refused with a 422 naming each field; a good one saves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
const p = '/api/v1/projects/demo';

beforeAll(async () => {
  dir = await tempDir('view-charts');
  runtime = await startTestRuntime(dir.path);
  api = apiClient(runtime, await loginToken(runtime));
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

const withChart = (chart: Record<string, unknown>) => ({
  id: 'v-chart',
  name: 'Chart',
  definition: {
    kind: 'visual',
    parameters: [],
    queries: [{ id: 'orders', actionId: 'search-orders', arguments: { limit: '5' }, runOn: 'load' }],
    layout: { id: 'root', type: 'grid', columns: 1, children: [{ id: 'c1', type: 'chart', ...chart }] },
  },
});
const at = '#/definition/layout/children/0';
const pointersOf = (body: { errors?: { pointer: string }[] }) =>
  (body.errors ?? []).map((e) => e.pointer).sort();

describe('chart components at save', () => {
  it('saves a bar chart over a query, and reads it back as saved', async () => {
    const chart = {
      chartType: 'bar',
      query: 'orders',
      x: 'id',
      y: ['total_yen'],
      pointClick: [{ type: 'refresh' }],
    };
    const saved = await api.put(`${p}/views/v-chart`, withChart(chart));
    expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
    const read = await api.get(`${p}/views/v-chart`);
    expect(read.body.definition.layout.children[0]).toEqual({ id: 'c1', type: 'chart', ...chart });
  });

  it('refuses an unknown chart kind and an empty list of y fields, naming each field', async () => {
    const response = await api.put(`${p}/views/v-chart-shape`, {
      ...withChart({ chartType: 'donut', query: 'orders', x: 'id', y: [] }),
      id: 'v-chart-shape',
    });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(JSON.stringify(response.body)).not.toMatch(/at .*\.ts:\d+/);
    expect(pointersOf(response.body)).toEqual([`${at}/chartType`, `${at}/y`]);
  });

  it('refuses a missing query, a y field twice, a click event to an unknown query and a bad expression', async () => {
    const missing = await api.put(`${p}/views/v-chart-refs`, {
      ...withChart({
        chartType: 'line',
        query: 'nope',
        x: 'id',
        y: ['total_yen', 'total_yen'],
        pointClick: [{ type: 'runQuery', query: 'gone' }],
      }),
      id: 'v-chart-refs',
    });
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe('invalid_definition');
    expect(pointersOf(missing.body)).toEqual([`${at}/query`, `${at}/y/1`, `${at}/pointClick/0/query`].sort());
    expect(missing.body.errors.find((e: { pointer: string }) => e.pointer === `${at}/query`).detail).toBe(
      "no query 'nope' in this view",
    );
    expect(missing.body.errors.find((e: { pointer: string }) => e.pointer === `${at}/y/1`)).toMatchObject({
      detail: "names y field 'total_yen' twice",
      ja: "y フィールド 'total_yen' が重複しています",
    });

    const both = await api.put(`${p}/views/v-chart-expr`, {
      ...withChart({ chartType: 'pie', value: 'queries.orders.rows +', x: 'id', y: ['total_yen'] }),
      id: 'v-chart-expr',
    });
    expect(both.status).toBe(422);
    expect(pointersOf(both.body)).toEqual([`${at}/value`]);
    expect(both.body.errors[0].detail).toMatch(/^syntax error in the expression at line 1, column/);
    expect((await api.get(`${p}/views/v-chart-expr`)).status).toBe(404);
  });
});
