/** Execution records in the embedded runtime's SQLite file (decision 0250), behind the Store's methods. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalDatabase, openLocalDatabase } from '../../local/sqlite/local-database.ts';
import { SqliteExecutions } from '../../local/sqlite/sqlite-executions.ts';
import type { Execution } from '../../shared/domain/model.ts';
import { tempDir } from '../support/runtime.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let local: LocalDatabase;
let executions: SqliteExecutions;
beforeAll(async () => {
  dir = await tempDir('sqlite-executions');
  local = await openLocalDatabase(join(dir.path, 'local.sqlite'));
  executions = new SqliteExecutions(local);
});
afterAll(async () => {
  await local?.close();
  await dir?.remove();
});

const execution = (id: string, fields: Partial<Execution> = {}): Execution => ({
  id,
  projectId: 'p',
  environmentId: 'e',
  actionId: 'a',
  actionVersion: 1,
  status: 'succeeded',
  principal: { kind: 'user', id: 'u', email: 'u@example.com' },
  via: 'public_api',
  arguments: { note: 'ü ✓ 𝄞' },
  startedAt: '2026-11-28T00:00:00.000Z',
  statements: [],
  ...fields,
});

describe('SqliteExecutions', () => {
  it('stores a record as given, replaces it by id, and answers undefined for an unknown id', async () => {
    const running = execution('exe_1', { status: 'running', deadlineAt: '2026-11-28T00:01:00.000Z' });
    await executions.putExecution(running);
    expect(await executions.getExecution('exe_1')).toEqual(running);
    const done = execution('exe_1', { finishedAt: '2026-11-28T00:00:01.000Z', durationMs: 1000 });
    await executions.putExecution(done);
    expect(await executions.getExecution('exe_1')).toEqual(done);
    expect(await executions.getExecution('exe_none')).toBeUndefined();
  });

  it('is not changed by the caller mutating the record or the answer afterwards', async () => {
    const record = execution('exe_2');
    await executions.putExecution(record);
    record.status = 'failed';
    const read = await executions.getExecution('exe_2');
    read!.arguments.note = 'changed';
    expect(await executions.getExecution('exe_2')).toEqual(execution('exe_2'));
  });

  it('lists running executions past a deadline, oldest deadline first, and drops them once final', async () => {
    const deadline = (minute: number) => `2026-11-28T01:${String(minute).padStart(2, '0')}:00.000Z`;
    await executions.putExecutions([
      execution('exe_late_b', { status: 'running', deadlineAt: deadline(20) }),
      execution('exe_late_a', { status: 'running', deadlineAt: deadline(10) }),
      execution('exe_future', { status: 'running', deadlineAt: deadline(50) }),
      execution('exe_no_deadline', { status: 'running' }),
      execution('exe_finished', { status: 'succeeded', deadlineAt: deadline(5) }),
    ]);
    const overdue = async () => (await executions.listOverdueExecutions(deadline(30))).map((e) => e.id);
    expect(await overdue()).toEqual(['exe_late_a', 'exe_late_b']);
    await executions.putExecution(execution('exe_late_a', { status: 'failed', deadlineAt: deadline(10) }));
    expect(await overdue()).toEqual(['exe_late_b']);
    // The sweeper's query reads the partial index, never the whole table.
    const plan = local.db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT record FROM executions
         WHERE status = 'running' AND deadline_at IS NOT NULL AND deadline_at < ? ORDER BY deadline_at`,
      )
      .all(deadline(30))
      .map((row) => String(row.detail));
    expect(plan.join('\n')).toContain('executions_live');
  });

  it('writes a batch whole or not at all', async () => {
    const bad = { ...execution('exe_batch_2'), status: undefined } as unknown as Execution;
    await expect(executions.putExecutions([execution('exe_batch_1'), bad])).rejects.toThrow();
    expect(await executions.getExecution('exe_batch_1')).toBeUndefined();
  });

  it('commits a write still waiting for its turn when the database closes', async () => {
    const written = executions.putExecution(execution('exe_at_close'));
    await local.close();
    await written;
    local = await openLocalDatabase(join(dir.path, 'local.sqlite'));
    executions = new SqliteExecutions(local);
    expect(await executions.getExecution('exe_at_close')).toEqual(execution('exe_at_close'));
  });
});
