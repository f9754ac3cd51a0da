/**
 * A child process for the kill -9 test of the embedded SQLite store (test/local/sqlite-store-kill.test.ts):
 * writes execution records and audit entries as fast as it can, several at once, and prints a line
 * for each write once it is acknowledged (its promise resolved). Pipes to the parent are written
 * synchronously on Linux, so a printed line was acknowledged before any kill.
 */
import { openLocalDatabase } from '../../local/sqlite/local-database.ts';
import { SqliteAuditLog } from '../../local/sqlite/sqlite-audit-log.ts';
import { SqliteExecutions } from '../../local/sqlite/sqlite-executions.ts';
import type { Execution } from '../../shared/domain/model.ts';

const [path, prefix] = process.argv.slice(2) as [string, string];
const local = await openLocalDatabase(path);
const executions = new SqliteExecutions(local);
const audit = new SqliteAuditLog(local);

const execution = (n: number, status: Execution['status']): Execution => ({
  id: `exe_${prefix}_${n}`,
  projectId: 'kill',
  environmentId: 'e',
  actionId: 'a',
  actionVersion: 1,
  status,
  principal: { kind: 'user', id: 'u', email: 'u@example.com' },
  via: 'public_api',
  arguments: { n, padding: 'x'.repeat(n % 2000) },
  startedAt: new Date(Date.UTC(2026, 10, 28, 0, 0, 0, n)).toISOString(),
  // Long past: every running record is overdue, so the sweeper's index query must list it.
  deadlineAt: '2000-01-01T00:00:00.000Z',
  statements: [],
});

async function writer(lane: number): Promise<never> {
  for (let n = lane; ; n += 4) {
    await executions.putExecution(execution(n, 'running'));
    process.stdout.write(`running ${prefix}_${n}\n`);
    if (n % 3 !== 0) {
      await executions.putExecution(execution(n, 'succeeded'));
      process.stdout.write(`final ${prefix}_${n}\n`);
    }
    await audit.append({
      id: `aud_${prefix}_${n}`,
      projectId: 'kill',
      at: new Date().toISOString(),
      actor: { kind: 'user', id: `u${n % 3}`, email: 'u@example.com' },
      event: 'execution.run',
      target: { type: 'action', id: 'a' },
      outcome: 'succeeded',
    });
    process.stdout.write(`audit ${prefix}_${n}\n`);
    // Let the other lanes and the checkpoint thread's messages in, as requests would.
    if (n % 16 === lane) await new Promise((resolve) => setImmediate(resolve));
  }
}

process.stdout.write('ready\n');
await Promise.all([0, 1, 2, 3].map(writer));
