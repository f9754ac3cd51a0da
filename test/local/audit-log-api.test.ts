/**
 * The audit log endpoints on a real embedded runtime: a page with a cursor,
 * query checks as Problem Details, and the CSV/JSON download. Entries are
 * appended with the adapter directly and lie in 2020, apart from anything the
 * runtime records itself.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import type { AuditEntry } from '../../shared/domain/audit.ts';
import { apiClient } from '../support/api.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
let token: string;
const base = '/api/v1/projects/demo/audit-log';
const in2020 = 'from=2020-01-01&to=2020-12-31';

const entry = (n: number, fields: Partial<AuditEntry> = {}): AuditEntry => ({
  id: `aud_api_${n}`,
  projectId: 'demo',
  at: `2020-06-0${n}T12:00:00.000Z`,
  actor: { kind: 'user', id: 'usr_api', email: 'api@example.com' },
  origin: { sourceIp: '192.0.2.1', userAgent: 'curl/8' },
  event: 'action.update',
  target: { type: 'action', id: 'list-orders' },
  outcome: 'succeeded',
  ...fields,
});

beforeAll(async () => {
  dir = await tempDir('audit-api');
  runtime = await startTestRuntime(dir.path);
  token = await loginToken(runtime);
  api = apiClient(runtime, token);
  const { audit } = runtime.services;
  await audit.append(entry(1));
  await audit.append(entry(2, { event: 'execution.run', environmentId: 'production' }));
  await audit.append(entry(3, { origin: { sourceIp: '192.0.2.9', userAgent: '=cmd|" /C calc"!A0' } }));
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

const download = (query: string) =>
  fetch(`${runtime.url}${base}/export?${query}`, { headers: { authorization: `Bearer ${token}` } });

describe('GET /api/v1/projects/{projectId}/audit-log', () => {
  it('answers a page newest first and a cursor to the rest', async () => {
    const first = await api.get(`${base}?${in2020}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.data.map((e: AuditEntry) => e.id)).toEqual(['aud_api_3', 'aud_api_2']);
    expect(first.body.has_more).toBe(true);
    const rest = await api.get(`${base}?${in2020}&limit=2&cursor=${first.body.next_cursor}`);
    expect(rest.body).toEqual({
      data: [
        { ...entry(1), chain: expect.objectContaining({ hash: expect.stringMatching(/^[0-9a-f]{64}$/) }) },
      ],
      has_more: false,
    });
  });

  it('filters by actor, event prefix and target; empty parameters mean no filter', async () => {
    const ids = async (query: string) =>
      (await api.get(`${base}?${in2020}&${query}`)).body.data.map((e: AuditEntry) => e.id);
    expect(await ids('event=execution.')).toEqual(['aud_api_2']);
    expect(await ids('actor=usr_api&target=list-orders&event=')).toEqual([
      'aud_api_3',
      'aud_api_2',
      'aud_api_1',
    ]);
    expect(await ids('actor=usr_nobody')).toEqual([]);
  });

  it('refuses bad parameters as Problem Details naming them', async () => {
    for (const [query, parameter] of [
      ['from=last-week', 'from'],
      ['from=2020-02-01&to=2020-01-01', 'from'],
      ['limit=lots', 'limit'],
      ['limit=5000', 'limit'],
      ['cursor=bogus', 'cursor'],
    ]) {
      const response = await api.get(`${base}?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.body).toMatchObject({ code: 'bad_request', parameter });
    }
  });

  it('needs a token and a known project', async () => {
    expect((await fetch(`${runtime.url}${base}`)).status).toBe(401);
    expect((await api.get('/api/v1/projects/nope/audit-log')).status).toBe(404);
  });
});

describe('GET /api/v1/projects/{projectId}/audit-log/export', () => {
  it('downloads CSV with a BOM and escaped formulas', async () => {
    const response = await download(in2020);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="audit-demo-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(response.headers.get('x-dogu-entry-count')).toBe('3');
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
    expect(text.startsWith('\uFEFFat,actor_kind,')).toBe(true);
    const rows = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.at)).toEqual([entry(3).at, entry(2).at, entry(1).at]);
    expect(rows[0]!.user_agent).toBe(`'=cmd|" /C calc"!A0`);
    expect(rows[1]!.environment).toBe('production');
  });

  it('downloads JSON with the same filters, and refuses an unknown format', async () => {
    const response = await download(`${in2020}&format=json&event=execution.run`);
    expect(response.headers.get('content-disposition')).toMatch(/filename="audit-demo-[\d-]+\.json"/);
    const { data } = (await response.json()) as { data: Record<string, unknown>[] };
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      event: 'execution.run',
      environment: 'production',
      source_ip: '192.0.2.1',
    });

    const refused = await download('format=xlsx');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'bad_request', parameter: 'format' });
  });
});
