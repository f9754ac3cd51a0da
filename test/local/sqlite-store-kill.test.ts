/**
 * kill -9 of a process writing execution records and audit entries to the embedded SQLite store
 * (decision 0250), at a different point each cycle. After each kill, every acknowledged write is
 * found by its id, and by its index query: the sweeper's overdue query lists a record exactly while it
 * is running; every acknowledged audit entry is in the project's list and in the actor's, and the
 * chain verifies.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLocalDatabase } from '../../local/sqlite/local-database.ts';
import { SqliteAuditLog } from '../../local/sqlite/sqlite-audit-log.ts';
import { SqliteExecutions } from '../../local/sqlite/sqlite-executions.ts';
import type { AuditEntry } from '../../shared/domain/audit.ts';
import { ChainVerifier } from '../../shared/domain/audit-chain/verify.ts';
import { repoRoot } from '../support/process.ts';
import { tempDir } from '../support/runtime.ts';

const cycles = 6;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('sqlite-kill');
});
afterAll(async () => {
  await dir?.remove();
});

interface Acknowledged {
  running: Set<string>;
  final: Set<string>;
  audit: Set<string>;
}

/** Starts the writer, kills it with SIGKILL after `killAfter` acknowledged lines, returns them. */
async function writeAndKill(path: string, prefix: string, killAfter: number): Promise<Acknowledged> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/support/local-store-writer.ts', path, prefix],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = once(child, 'exit');
  const acknowledged: Acknowledged = { running: new Set(), final: new Set(), audit: new Set() };
  let lines = 0;
  for await (const line of createInterface({ input: child.stdout! })) {
    const [kind, id] = line.split(' ') as [keyof Acknowledged | 'ready', string];
    if (kind === 'ready') continue;
    acknowledged[kind].add(id);
    if (++lines === killAfter) child.kill('SIGKILL');
  }
  const [code, signal] = await exited;
  expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
  return acknowledged;
}

async function allEntries(audit: SqliteAuditLog, query: { projectId: string; actorId?: string }) {
  const entries: AuditEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await audit.list({ ...query, limit: 1000, ...(cursor ? { cursor } : {}) });
    entries.push(...page.entries);
    cursor = page.nextCursor;
  } while (cursor);
  return entries;
}

describe('kill -9 while the embedded SQLite store is written', () => {
  it('finds every acknowledged write by id and by its index after each restart', {
    timeout: 300_000,
  }, async () => {
    const path = join(dir.path, 'local.sqlite');
    const all: Acknowledged = { running: new Set(), final: new Set(), audit: new Set() };
    for (let cycle = 0; cycle < cycles; cycle++) {
      // Early in a write stream, then later and later: kills land in different writes.
      const seen = await writeAndKill(path, `c${cycle}`, 50 + cycle * 900);
      for (const kind of ['running', 'final', 'audit'] as const)
        for (const id of seen[kind]) all[kind].add(id);

      const local = await openLocalDatabase(path);
      try {
        const executions = new SqliteExecutions(local);
        const audit = new SqliteAuditLog(local);
        const missing: string[] = [];
        const stored = new Map<string, string>();
        for (const id of all.running) {
          const record = await executions.getExecution(`exe_${id}`);
          if (!record) missing.push(`exe_${id}`);
          else if (all.final.has(id) && record.status !== 'succeeded') missing.push(`final of exe_${id}`);
          else stored.set(record.id, record.status);
        }
        expect(missing, `after kill ${cycle + 1}`).toEqual([]);

        // The index agrees with the records: a record is listed as overdue exactly while it is running.
        // (A final write may be stored without its acknowledgement when the kill fell in between.)
        const overdue = await executions.listOverdueExecutions('2030-01-01T00:00:00.000Z');
        expect(
          overdue.filter((e) => e.status !== 'running').map((e) => e.id),
          'final but indexed',
        ).toEqual([]);
        const listedOverdue = new Set(overdue.map((e) => e.id));
        const running = [...stored].filter(([, status]) => status === 'running').map(([id]) => id);
        expect(
          running.filter((id) => !listedOverdue.has(id)),
          'running but not in the overdue index',
        ).toEqual([]);

        const listed = new Set((await allEntries(audit, { projectId: 'kill' })).map((e) => e.id));
        expect(
          [...all.audit].filter((id) => !listed.has(`aud_${id}`)),
          'audit entries not listed',
        ).toEqual([]);
        const byActor = new Set(
          (
            await Promise.all(
              ['u0', 'u1', 'u2'].map((actorId) => allEntries(audit, { projectId: 'kill', actorId })),
            )
          )
            .flat()
            .map((e) => e.id),
        );
        expect(
          [...listed].filter((id) => !byActor.has(id)),
          'audit entries not in the actor index',
        ).toEqual([]);

        const verifier = new ChainVerifier();
        let cursor: string | undefined;
        let head: Awaited<ReturnType<typeof audit.chainPage>>['head'];
        do {
          const page = await audit.chainPage({ projectId: 'kill', ...(cursor ? { cursor } : {}) });
          for (const entry of page.entries) verifier.add(entry);
          cursor = page.nextCursor;
          head = page.head;
        } while (cursor);
        expect(verifier.finish(head)).toMatchObject({ ok: true, checked: listed.size });
      } finally {
        await local.close();
      }
    }
    expect(all.audit.size).toBeGreaterThan(cycles * 10);
  });
});
