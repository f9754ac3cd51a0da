/**
 * Reading and exporting the audit log through the use cases, on the embedded
 * DynamoDB: query checks, the right 'view_audit', CSV and JSON shapes,
 * formula escaping, and the size limits.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from '../../local/embedded-dynamodb.ts';
import { DynamoDbAuditLog } from '../../shared/adapters/dynamodb/dynamodb-audit-log.ts';
import { DynamoDbStore } from '../../shared/adapters/dynamodb/dynamodb-store.ts';
import type { AuditEntry } from '../../shared/domain/audit.ts';
import { entryHash } from '../../shared/domain/audit-chain/link.ts';
import { DoguError } from '../../shared/domain/errors.ts';
import { type AuditDeps, exportAudit, exportColumns, listAudit } from '../../shared/domain/manage/audit.ts';
import type { Principal } from '../../shared/domain/model.ts';
import { tempDir } from '../support/runtime.ts';

let dynamo: EmbeddedDynamoDb;
let dir: Awaited<ReturnType<typeof tempDir>>;
let deps: AuditDeps;

const admin: Principal = { kind: 'user', id: 'usr_admin', email: 'admin@example.com', name: 'Admin' };
const member: Principal = { kind: 'user', id: 'usr_member', email: 'member@example.com', name: 'Member' };
const stranger: Principal = { kind: 'user', id: 'usr_stranger', email: 'x@example.com', name: 'X' };
const createdAt = '2026-11-01T00:00:00.000Z';

const plain: AuditEntry = {
  id: 'aud_1',
  projectId: 'shop',
  at: '2026-11-22T09:00:00.000Z',
  actor: { kind: 'user', id: 'usr_admin', email: 'admin@example.com' },
  origin: { sourceIp: '203.0.113.7', userAgent: 'Mozilla/5.0' },
  event: 'action.update',
  target: { type: 'action', id: 'list-orders' },
  outcome: 'succeeded',
  details: { changed: ['sql', 'parameters'], version: 4 },
};
/** Caller-controlled text that a spreadsheet would run as a formula. */
const crafted: AuditEntry = {
  id: 'aud_2',
  projectId: 'shop',
  at: '2026-11-22T10:00:00.000Z',
  actor: { kind: 'service_account', id: 'sa_ci', email: '=HYPERLINK("http://evil.example","x")' },
  origin: { sourceIp: '198.51.100.1', userAgent: '@SUM(1+1)*cmd|calc' },
  event: 'execution.run',
  target: { type: 'action', id: '-2+3' },
  environmentId: 'production',
  outcome: 'refused',
  details: { reason: '+danger' },
};
/** A system entry: no origin, no environment, no details. */
const system: AuditEntry = {
  id: 'aud_3',
  projectId: 'shop',
  at: '2026-11-22T11:00:00.000Z',
  actor: { kind: 'system', id: 'system', email: '' },
  event: 'project.seed',
  target: { type: 'project', id: 'shop' },
  outcome: 'failed',
};

beforeAll(async () => {
  dir = await tempDir('audit-export');
  dynamo = await startEmbeddedDynamoDb(dir.path, 'dogu');
  const store = new DynamoDbStore(dynamo.client, 'dogu');
  deps = { store, audit: new DynamoDbAuditLog(dynamo.client, 'dogu') };
  await store.createProject({ id: 'shop', name: 'Shop', createdAt });
  await store.createProject({ id: 'big', name: 'Big', createdAt });
  for (const projectId of ['shop', 'big']) {
    await store.putMembership({ projectId, principalId: admin.id, role: 'admin' });
    await store.putMembership({ projectId, principalId: member.id, role: 'member' });
  }
  for (const entry of [plain, crafted, system]) await deps.audit.append(entry);
});
afterAll(async () => {
  await dynamo?.close();
  await dir?.remove();
});

async function refusal(promise: Promise<unknown>): Promise<DoguError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DoguError);
  return error as DoguError;
}

describe('listAudit', () => {
  it('answers a page newest first for a holder of view_audit', async () => {
    const page = await listAudit(deps, admin, { projectId: 'shop' });
    expect(page.entries.map((e) => e.id)).toEqual(['aud_3', 'aud_2', 'aud_1']);
    expect(page.nextCursor).toBeUndefined();
  });

  it('reads times in any zone and a bare date as the whole UTC day', async () => {
    const ids = async (from: string, to: string) =>
      (await listAudit(deps, admin, { projectId: 'shop', from, to })).entries.map((e) => e.id);
    expect(await ids('2026-11-22T19:00:00+09:00', '2026-11-22T19:30+09:00')).toEqual(['aud_2']);
    expect(await ids('2026-11-22', '2026-11-22')).toEqual(['aud_3', 'aud_2', 'aud_1']);
    expect(await ids('2026-11-23', '2026-11-23')).toEqual([]);
  });

  it('refuses bad queries with 400 naming the parameter', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ from: 'yesterday' }, 'from'],
      [{ from: '2026-02-30' }, 'from'],
      [{ to: '2026-11-22T25:00:00Z' }, 'to'],
      // Without a zone the time would depend on the server's.
      [{ to: '2026-11-22T10:00:00' }, 'to'],
      [{ from: '2026-11-23', to: '2026-11-22' }, 'from'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 1001 }, 'limit'],
      [{ limit: 2.5 }, 'limit'],
      [{ limit: Number.NaN }, 'limit'],
      [{ event: '' }, 'event'],
      [{ actorId: 'x'.repeat(201) }, 'actor'],
      [{ cursor: 'forged' }, 'cursor'],
    ];
    for (const [query, parameter] of cases) {
      const error = await refusal(listAudit(deps, admin, { projectId: 'shop', ...query }));
      expect({ query, code: error.code, parameter: error.extra?.parameter }).toEqual({
        query,
        code: 'bad_request',
        parameter,
      });
      expect(error.message).toContain(`'${parameter}'`);
    }
  });

  it('needs the right view_audit: a member is refused, a stranger too, an unknown project is 404', async () => {
    const denied = await refusal(listAudit(deps, member, { projectId: 'shop' }));
    expect(denied.code).toBe('forbidden');
    expect(denied.extra?.missingRight).toBe('view_audit');
    expect((await refusal(listAudit(deps, stranger, { projectId: 'shop' }))).code).toBe('forbidden');
    expect((await refusal(listAudit(deps, admin, { projectId: 'nope' }))).code).toBe('not_found');
    expect((await refusal(exportAudit(deps, member, { projectId: 'shop' }, 'csv'))).code).toBe('forbidden');
  });
});

describe('exportAudit', () => {
  /** The chain columns of a stored entry: its place and hashes, as the export writes them. */
  async function chainColumns(id: string, asText: boolean) {
    const stored = (await listAudit(deps, admin, { projectId: 'shop' })).entries.find((e) => e.id === id)!;
    const { seq, prevHash, hash } = stored.chain!;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    return { seq: asText ? String(seq) : seq, prev_hash: prevHash, hash };
  }

  it('writes CSV with a BOM, exactly the listed columns, newest first, formulas escaped', async () => {
    const { text, entryCount } = await exportAudit(deps, admin, { projectId: 'shop' }, 'csv');
    expect(entryCount).toBe(3);
    expect(text.startsWith(`\uFEFF${exportColumns.join(',')}\r\n`)).toBe(true);
    const rows = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(Object.keys(row)).toEqual([...exportColumns]);
    expect(rows[0]).toEqual({
      at: system.at,
      actor_kind: 'system',
      actor_id: 'system',
      actor_email: '',
      source_ip: '',
      user_agent: '',
      event: 'project.seed',
      target_type: 'project',
      target_id: 'shop',
      environment: '',
      outcome: 'failed',
      details: '',
      ...(await chainColumns('aud_3', true)),
    });
    expect(rows[1]).toEqual({
      at: crafted.at,
      actor_kind: 'service_account',
      actor_id: 'sa_ci',
      actor_email: `'=HYPERLINK("http://evil.example","x")`,
      source_ip: '198.51.100.1',
      user_agent: "'@SUM(1+1)*cmd|calc",
      event: 'execution.run',
      target_type: 'action',
      target_id: "'-2+3",
      environment: 'production',
      outcome: 'refused',
      details: '{"reason":"+danger"}',
      ...(await chainColumns('aud_2', true)),
    });
    // Appended one after another: places 1, 2, 3, each after the one before.
    expect(rows.map((row) => row.seq)).toEqual(['3', '2', '1']);
    expect(rows[2]!.prev_hash).toBe('0'.repeat(64));
    expect(rows[0]!.prev_hash).toBe(rows[1]!.hash);
    expect(rows[2]).toMatchObject({
      actor_email: 'admin@example.com',
      source_ip: '203.0.113.7',
      user_agent: 'Mozilla/5.0',
      details: '{"changed":["sql","parameters"],"version":4}',
    });
  });

  it('writes JSON as {"data": [...]} with the same fields, values unescaped', async () => {
    const { text } = await exportAudit(deps, admin, { projectId: 'shop', event: 'execution.' }, 'json');
    const document = JSON.parse(text) as { data: Record<string, unknown>[] };
    expect(Object.keys(document)).toEqual(['data']);
    expect(document.data).toEqual([
      {
        at: crafted.at,
        actor_kind: 'service_account',
        actor_id: 'sa_ci',
        actor_email: crafted.actor.email,
        source_ip: '198.51.100.1',
        user_agent: '@SUM(1+1)*cmd|calc',
        event: 'execution.run',
        target_type: 'action',
        target_id: '-2+3',
        environment: 'production',
        outcome: 'refused',
        details: { reason: '+danger' },
        ...(await chainColumns('aud_2', false)),
      },
    ]);
  });

  it('writes JSON Lines as stored, chain included: each line hashes to its own hash', async () => {
    const { text, entryCount } = await exportAudit(deps, admin, { projectId: 'shop' }, 'jsonl');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(entryCount);
    const entries = lines.map((line) => JSON.parse(line) as AuditEntry);
    expect(entries.map((e) => e.id)).toEqual(['aud_3', 'aud_2', 'aud_1']);
    for (const e of entries) expect(entryHash(e, e.chain!.seq, e.chain!.prevHash)).toBe(e.chain!.hash);
    expect(entries[0]).toMatchObject({ ...system, chain: { seq: 3, prevHash: entries[1]!.chain!.hash } });
  });

  it('applies the same filters as the list and holds nothing but the listed fields', async () => {
    const { text } = await exportAudit(deps, admin, { projectId: 'shop', actorId: 'usr_admin' }, 'json');
    const { data } = JSON.parse(text) as { data: Record<string, unknown>[] };
    expect(data.map((row) => row.at)).toEqual([plain.at]);
    for (const row of data) expect(Object.keys(row)).toEqual([...exportColumns]);
    // Storage attributes and ids never leave.
    expect(text).not.toMatch(/AUDIT#|gsi1|"pk"|"sk"|aud_1|"projectId"/);
  });

  describe('across pages and past the limits', () => {
    const count = 1_100;
    beforeAll(async () => {
      const entries = Array.from({ length: count }, (_, i) => ({
        ...plain,
        id: `aud_${String(i).padStart(5, '0')}`,
        projectId: 'big',
        at: new Date(Date.UTC(2026, 10, 22, 0, 0, 0, i)).toISOString(),
      }));
      for (let i = 0; i < entries.length; i += 50)
        await Promise.all(entries.slice(i, i + 50).map((e) => deps.audit.append(e)));
    });

    it('exports every entry, following the log page by page', async () => {
      const { text, entryCount } = await exportAudit(deps, admin, { projectId: 'big' }, 'csv');
      expect(entryCount).toBe(count);
      const rows = parse(text, { bom: true, columns: true }) as { at: string }[];
      expect(rows).toHaveLength(count);
      expect(new Set(rows.map((r) => r.at)).size).toBe(count);
      expect(rows[0]!.at > rows.at(-1)!.at).toBe(true);
      // Each page is rendered on its own; the header and BOM appear once.
      expect(text.split('\uFEFF')).toHaveLength(2);
      expect(text.match(/at,actor_kind,/g)).toHaveLength(1);
    });

    it('refuses with 413 rather than cut an export short, by entries or by size', async () => {
      const byEntries = await refusal(
        exportAudit(deps, admin, { projectId: 'big' }, 'csv', { maxEntries: 1_050, maxBytes: 5e6 }),
      );
      expect(byEntries.code).toBe('payload_too_large');
      expect(byEntries.message).toMatch(/More than 1,050 audit entries match: narrow the time range/);
      const bySize = await refusal(
        exportAudit(deps, admin, { projectId: 'big' }, 'json', { maxEntries: 100_000, maxBytes: 100_000 }),
      );
      expect(bySize.code).toBe('payload_too_large');
      expect(bySize.message).toMatch(/would exceed 0\.1 MB: narrow the time range with 'from' and 'to'/);
      // Narrowed, the same export fits.
      const narrowed = await exportAudit(
        deps,
        admin,
        { projectId: 'big', to: '2026-11-22T00:00:00.099Z' },
        'csv',
        { maxEntries: 1_050, maxBytes: 100_000 },
      );
      expect(narrowed.entryCount).toBe(100);
    });
  });
});
