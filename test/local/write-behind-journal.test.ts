import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from '../../local/embedded-dynamodb.ts';
import { WriteBehindJournal } from '../../local/write-behind-journal.ts';
import { createDocumentClient } from '../../shared/adapters/dynamodb/client.ts';
import { DynamoDbExecutionStore } from '../../shared/adapters/dynamodb/dynamodb-execution-store.ts';
import { logger } from '../../shared/commons/logger.ts';
import type { Execution } from '../../shared/domain/model.ts';
import { tempDir } from '../support/runtime.ts';

let dynamo: EmbeddedDynamoDb;
let dir: Awaited<ReturnType<typeof tempDir>>;
let store: DynamoDbExecutionStore;
beforeAll(async () => {
  dir = await tempDir('journal');
  dynamo = await startEmbeddedDynamoDb(join(dir.path, 'db'), 'dogu');
  store = new DynamoDbExecutionStore(dynamo.client, 'dogu');
});
afterAll(async () => {
  await dynamo?.close();
  await dir?.remove();
});

const execution = (id: string, status: Execution['status'] = 'succeeded'): Execution => ({
  id,
  projectId: 'p',
  environmentId: 'e',
  actionId: 'a',
  actionVersion: 1,
  status,
  principal: { kind: 'user', id: 'u', email: 'u@example.com' },
  via: 'public_api',
  arguments: {},
  startedAt: '2026-11-22T00:00:00.000Z',
  statements: [],
});

describe('WriteBehindJournal', () => {
  it('writes records appended together in one append and stores a running-then-finished record once', async () => {
    const path = join(dir.path, 'together.journal');
    const stored: Execution[][] = [];
    const journal = await WriteBehindJournal.open<Execution>(
      path,
      async (records) => {
        stored.push(records);
      },
      'together',
    );
    // The "running" record before the action and its outcome after, plus another execution.
    await Promise.all([journal.append(execution('exe_t1', 'running')), journal.append(execution('exe_t2'))]);
    await journal.append(execution('exe_t1', 'succeeded'));
    const lines = (await readFile(path, 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as Execution).status)).toEqual([
      'running',
      'succeeded',
      'succeeded',
    ]);
    expect(journal.stats()).toEqual({ size: 2, max: 5_000 });
    await journal.flush();
    expect(stored.flat().map((e) => `${e.id}:${e.status}`)).toEqual(['exe_t1:succeeded', 'exe_t2:succeeded']);
    expect(journal.stats().size).toBe(0);
    await journal.close();
  });

  it('replays what a crashed process left, skipping a torn last line', async () => {
    const path = join(dir.path, 'c.journal');
    await appendFile(
      path,
      `${JSON.stringify(execution('exe_c1'))}\n${JSON.stringify(execution('exe_c2'))}\n{"id":"exe_c3","sta`,
    );
    const journal = await WriteBehindJournal.open<Execution>(
      path,
      (records) => store.putExecutions(records),
      'c',
    );
    expect((await store.getExecution('exe_c1'))?.id).toBe('exe_c1');
    expect((await store.getExecution('exe_c2'))?.id).toBe('exe_c2');
    expect(await store.getExecution('exe_c3')).toBeUndefined();
    expect(await readFile(path, 'utf8')).toBe('');
    await journal.close();
  });

  it('says once that the store cannot be reached, keeps every record, and stores them when it is back', async () => {
    const unreachable = new DynamoDbExecutionStore(
      createDocumentClient({
        endpoint: 'http://127.0.0.1:9',
        region: 'local',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        maxAttempts: 1,
      }),
      'dogu',
    );
    let target = unreachable;
    const warn = vi.spyOn(logger, 'warn');
    const info = vi.spyOn(logger, 'info');
    const path = join(dir.path, 'e.journal');
    const journal = await WriteBehindJournal.open<Execution>(
      path,
      (records) => target.putExecutions(records),
      'e',
    );
    try {
      for (const id of ['exe_e1', 'exe_e2']) await journal.append(execution(id));
      for (let i = 0; i < 3; i++) await journal.flush();
      expect(warn.mock.calls.map((c) => c[0])).toEqual(['journaled records not yet stored; will retry']);
      expect(journal.pending.size).toBe(2);
      expect(await readFile(path, 'utf8')).toContain('exe_e2');

      target = store;
      await journal.flush();
      expect(journal.pending.size).toBe(0);
      expect(info.mock.calls.map((c) => c[0])).toContain('journaled records are being stored again');
      expect((await store.getExecution('exe_e1'))?.id).toBe('exe_e1');
      expect(await readFile(path, 'utf8')).toBe('');
      await expect(readFile(join(dir.path, 'quarantine', 'e.jsonl'))).rejects.toThrow(/ENOENT/);
    } finally {
      vi.restoreAllMocks();
      await journal.close();
    }
  });
});
