/**
 * A data directory of a version before decision 0250 (execution records and audit entries in
 * dynalite, a journal left by a crash) starts with everything readable: records by id and by the
 * sweeper's query, audit entries listed and their chain continued and verified. The move happens once.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedDynamoDb } from '../../local/embedded-dynamodb.ts';
import type { LocalRuntime } from '../../local/runtime.ts';
import { DynamoDbAuditLog } from '../../shared/adapters/dynamodb/dynamodb-audit-log.ts';
import { DynamoDbExecutionStore } from '../../shared/adapters/dynamodb/dynamodb-execution-store.ts';
import type { AuditEntry } from '../../shared/domain/audit.ts';
import { linkAfter } from '../../shared/domain/audit-chain/link.ts';
import { ChainVerifier } from '../../shared/domain/audit-chain/verify.ts';
import type { Execution } from '../../shared/domain/model.ts';
import { startTestRuntime, tempDir } from '../support/runtime.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let runtime: LocalRuntime | undefined;
beforeAll(async () => {
  dir = await tempDir('from-dynalite');
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

const execution = (id: string, fields: Partial<Execution> = {}): Execution => ({
  id,
  projectId: 'old',
  environmentId: 'e',
  actionId: 'a',
  actionVersion: 1,
  status: 'succeeded',
  principal: { kind: 'user', id: 'u', email: 'u@example.com' },
  via: 'public_api',
  arguments: { n: id },
  startedAt: '2026-11-01T00:00:00.000Z',
  statements: [],
  ...fields,
});

const entry = (n: number): AuditEntry => ({
  id: `aud_old_${String(n).padStart(2, '0')}`,
  projectId: 'old',
  at: new Date(Date.UTC(2026, 10, 1, 0, 0, n)).toISOString(),
  actor: { kind: 'user', id: n % 2 ? 'usr_odd' : 'usr_even', email: 'u@example.com' },
  event: 'action.update',
  target: { type: 'action', id: `a${n}` },
  outcome: 'succeeded',
});

async function chainOf(rt: LocalRuntime, projectId: string) {
  const verifier = new ChainVerifier();
  let cursor: string | undefined;
  let head: Awaited<ReturnType<LocalRuntime['services']['audit']['chainPage']>>['head'];
  do {
    const page = await rt.services.audit.chainPage({ projectId, limit: 7, ...(cursor ? { cursor } : {}) });
    for (const e of page.entries) verifier.add(e);
    cursor = page.nextCursor;
    head = page.head;
  } while (cursor);
  return verifier.finish(head);
}

describe('a data directory from before the SQLite store', () => {
  it('keeps its executions and audit entries readable, listed and chained; moved once', {
    timeout: 180_000,
  }, async () => {
    // What an older version left: items in dynalite, written by its adapters.
    const dynamo = await startEmbeddedDynamoDb(join(dir.path, 'dynamodb'), 'dogu');
    let dynaliteHead: Awaited<ReturnType<DynamoDbAuditLog['head']>>;
    try {
      const store = new DynamoDbExecutionStore(dynamo.client, 'dogu');
      await store.putExecution(execution('exe_old_done'));
      await store.putExecution(
        execution('exe_old_running', { status: 'running', deadlineAt: '2026-11-01T00:01:00.000Z' }),
      );
      const audit = new DynamoDbAuditLog(dynamo.client, 'dogu');
      for (let n = 1; n <= 20; n++) await audit.append(entry(n));
      dynaliteHead = await audit.head('old');
    } finally {
      await dynamo.close();
    }
    expect(dynaliteHead).toMatchObject({ seq: 20 });
    // And the journals its crash left: a newer version of one record, one more chained entry.
    await writeFile(
      join(dir.path, 'executions.journal'),
      `${JSON.stringify(execution('exe_old_done', { status: 'failed' }))}\n${JSON.stringify(execution('exe_journal'))}\n`,
    );
    await writeFile(
      join(dir.path, 'audit.journal'),
      `${JSON.stringify(linkAfter(dynaliteHead, entry(21)))}\n`,
    );

    runtime = await startTestRuntime(dir.path);
    const { executions: store, audit } = runtime.services;
    expect((await store.getExecution('exe_old_done'))?.status).toBe('failed');
    expect(await store.getExecution('exe_journal')).toEqual(execution('exe_journal'));
    // The run left `running` was found by the index query at start-up and ended as interrupted.
    expect(await store.getExecution('exe_old_running')).toMatchObject({
      status: 'failed',
      error: { code: 'interrupted' },
    });
    expect(await store.listOverdueExecutions('9999-12-31T23:59:59.999Z')).toEqual([]);
    const listed = await audit.list({ projectId: 'old', limit: 100 });
    expect(listed.entries.map((e) => e.id)).toEqual(Array.from({ length: 21 }, (_, i) => entry(21 - i).id));
    expect((await audit.list({ projectId: 'old', actorId: 'usr_odd' })).entries).toHaveLength(11);
    expect(await audit.head('old')).toMatchObject({ seq: 21, entryId: 'aud_old_21' });
    // The chain goes on where the older version left it.
    await audit.append(entry(22));
    expect(await audit.head('old')).toMatchObject({ seq: 22, entryId: 'aud_old_22' });
    expect(await chainOf(runtime, 'old')).toMatchObject({ ok: true, checked: 22 });
    expect(await runtime.services.audit.heads()).toContainEqual(await audit.head('old'));
    await runtime.close();
    runtime = undefined;

    // Moved once: an item added to dynalite now is not read any more; the journals are gone.
    const later = await startEmbeddedDynamoDb(join(dir.path, 'dynamodb'), 'dogu');
    try {
      await new DynamoDbExecutionStore(later.client, 'dogu').putExecution(execution('exe_after_move'));
    } finally {
      await later.close();
    }
    runtime = await startTestRuntime(dir.path);
    expect(await runtime.services.executions.getExecution('exe_after_move')).toBeUndefined();
    expect((await runtime.services.executions.getExecution('exe_old_done'))?.status).toBe('failed');
    expect(await chainOf(runtime, 'old')).toMatchObject({ ok: true, checked: 22 });
  });
});
