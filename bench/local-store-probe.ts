/**
 * `npx tsx bench/local-store-probe.ts`: what one execution's records cost in the embedded store
 * (decision 0250). Per execution: its `running` record, its final record and one audit entry,
 * written through (a) the AWS SDK to dynalite in its worker, one request each, (b) the same in
 * batches of 100 (what the former write-behind journal did), (c) SQLite in this thread with
 * `synchronous=NORMAL` and (d) with `FULL`. Prints microseconds per execution at concurrency 1
 * (time until acknowledged) and executions/s at concurrency 32, and the main thread's CPU per
 * execution (dynalite's worker thread works on top of that).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startEmbeddedDynamoDb } from '../local/embedded-dynamodb.ts';
import { openLocalDatabase } from '../local/sqlite/local-database.ts';
import { SqliteAuditLog } from '../local/sqlite/sqlite-audit-log.ts';
import { SqliteExecutions } from '../local/sqlite/sqlite-executions.ts';
import { DynamoDbAuditLog } from '../shared/adapters/dynamodb/dynamodb-audit-log.ts';
import { DynamoDbExecutionStore } from '../shared/adapters/dynamodb/dynamodb-execution-store.ts';
import type { AuditEntry } from '../shared/domain/audit.ts';
import { linkAfter } from '../shared/domain/audit-chain/link.ts';
import type { Execution } from '../shared/domain/model.ts';

const count = Number(process.env.PROBE_EXECUTIONS ?? 2000);

interface Sink {
  write(n: number): Promise<void>;
}

function records(n: number): { running: Execution; done: Execution; entry: AuditEntry } {
  const startedAt = new Date(Date.UTC(2026, 10, 28, 0, 0, 0, n)).toISOString();
  const running: Execution = {
    id: `exe_${process.pid}_${n}`,
    projectId: 'demo',
    environmentId: 'development',
    actionId: 'list-orders',
    actionVersion: 3,
    status: 'running',
    principal: { kind: 'user', id: 'usr_ann', email: 'ann@example.com' },
    via: 'public_api',
    arguments: { status: 'shipped', limit: 5 },
    startedAt,
    deadlineAt: new Date(Date.parse(startedAt) + 60_000).toISOString(),
    statements: [],
  };
  const done: Execution = {
    ...running,
    status: 'succeeded',
    finishedAt: startedAt,
    durationMs: 1,
    statements: [{ title: 'list orders', status: 'succeeded', rowCount: 5, messages: [] }],
  };
  const entry: AuditEntry = {
    id: `aud_${process.pid}_${n}`,
    projectId: 'demo',
    at: startedAt,
    actor: running.principal,
    origin: { sourceIp: '127.0.0.1', userAgent: 'probe' },
    event: 'execution.run',
    target: { type: 'action', id: 'list-orders' },
    environmentId: 'development',
    outcome: 'succeeded',
    details: { executionId: running.id },
  };
  return { running, done, entry };
}

async function measure(name: string, sink: Sink) {
  for (let n = 0; n < 200; n++) await sink.write(-1 - n);
  let cpu = process.cpuUsage();
  let started = performance.now();
  for (let n = 0; n < count; n++) await sink.write(n);
  const sequentialUs = ((performance.now() - started) * 1000) / count;
  const sequentialCpuUs = cpuUs(process.cpuUsage(cpu)) / count;
  cpu = process.cpuUsage();
  started = performance.now();
  let next = count;
  const end = count * 3;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < end) await sink.write(next++);
    }),
  );
  const perSecond = (count * 2) / ((performance.now() - started) / 1000);
  const parallelCpuUs = cpuUs(process.cpuUsage(cpu)) / (count * 2);
  console.log(
    `${name.padEnd(34)} c=1 ${sequentialUs.toFixed(0).padStart(6)} µs/execution (CPU ${sequentialCpuUs.toFixed(0)} µs)` +
      `   c=32 ${perSecond.toFixed(0).padStart(6)} executions/s (CPU ${parallelCpuUs.toFixed(0)} µs)`,
  );
}

const cpuUs = (usage: NodeJS.CpuUsage) => usage.user + usage.system;

const dir = await mkdtemp(join(tmpdir(), 'local-store-probe-'));
try {
  const dynamo = await startEmbeddedDynamoDb(join(dir, 'dynamodb'), 'dogu');
  const store = new DynamoDbExecutionStore(dynamo.client, 'dogu');
  const ddbAudit = new DynamoDbAuditLog(dynamo.client, 'dogu');
  let head: { seq: number; hash: string } | undefined;
  const linked = (entry: AuditEntry) => {
    const l = linkAfter(head, entry);
    head = l.chain;
    return l;
  };
  await measure('dynalite via SDK, one request each', {
    async write(n) {
      const { running, done, entry } = records(n);
      await store.putExecution(running);
      await store.putExecution(done);
      await ddbAudit.appendMany([linked(entry)]);
    },
  });
  const pending: { done: Execution; entry: AuditEntry }[] = [];
  await measure('dynalite via SDK, batches of 100', {
    async write(n) {
      const { done, entry } = records(n + 10_000_000);
      pending.push({ done, entry: linked(entry) });
      if (pending.length < 100) return;
      const batch = pending.splice(0);
      await store.putExecutions(batch.map((p) => p.done));
      await ddbAudit.appendMany(batch.map((p) => p.entry));
    },
  });
  await dynamo.close();
  for (const synchronous of ['NORMAL', 'FULL'] as const) {
    const local = await openLocalDatabase(join(dir, `${synchronous}.sqlite`), { synchronous });
    const executions = new SqliteExecutions(local);
    const audit = new SqliteAuditLog(local);
    await measure(`SQLite in-process, synchronous=${synchronous}`, {
      async write(n) {
        const { running, done, entry } = records(n);
        await executions.putExecution(running);
        await executions.putExecution(done);
        await audit.append(entry);
      },
    });
    await local.close();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
