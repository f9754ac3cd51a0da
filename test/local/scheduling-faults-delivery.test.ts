/**
 * Duplicate delivery of a scheduled time (issue 6): deliveries are at least once (EventBridge
 * Scheduler retries, the embedded scheduler after a restart), so the same (job, scheduled time)
 * delivered twice at once, and again later, must run the action exactly once and keep one run.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { deliverCronRun } from '../../shared/domain/scheduling/cron-runs.ts';
import { schedulingDeps } from '../../shared/runtime/services.ts';
import { apiClient } from '../support/api.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let database: TestDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
let runtime: LocalRuntime;
let client: pg.Client;
let api: ReturnType<typeof apiClient>;
const scope = '/api/v1/projects/demo/environments/development';

beforeAll(async () => {
  database = await createTestDatabase();
  dir = await tempDir('duplicate-delivery');
  client = new pg.Client(database.connection);
  await client.connect();
  await client.query('CREATE TABLE delivered (job text NOT NULL, at timestamptz NOT NULL DEFAULT now())');
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url });
  api = apiClient(runtime, await loginToken(runtime));
  const action = await api.put('/api/v1/projects/demo/actions/record-delivery', {
    id: 'record-delivery',
    name: 'Record delivery',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    // Slow enough that the second delivery arrives while the first still runs.
    statements: [{ title: 'insert', sql: 'INSERT INTO delivered (job) SELECT {{ job }} FROM pg_sleep(0.3)' }],
    parameters: [{ name: 'job', kind: 'text', label: 'Job', required: true }],
  });
  expect(action.status, JSON.stringify(action.body)).toBeLessThan(300);
});
afterAll(async () => {
  await runtime?.close();
  await client?.end();
  await dir?.remove();
  await database?.drop();
});

/** A job whose own schedule never fires during the test (1 January), so every run here is ours. */
async function createJob(name: string): Promise<string> {
  const created = await api.post(`${scope}/cron-jobs`, {
    name,
    schedule: { kind: 'cron', expression: '0 0 1 1 ? *' },
    actionId: 'record-delivery',
    arguments: { job: name },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

const pick = (run: { status: string; startedAt?: string; executionId?: string }) => ({
  status: run.status,
  ...(run.startedAt ? { startedAt: run.startedAt } : {}),
  ...(run.executionId ? { executionId: run.executionId } : {}),
});

const insertedFor = async (job: string) =>
  (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM delivered WHERE job = $1', [job]))
    .rows[0]!.n;

describe('duplicate delivery of a scheduled time', () => {
  it('runs the action once and keeps one run for concurrent and late duplicates', async () => {
    const jobId = await createJob('twice-at-once');
    const deps = schedulingDeps(runtime.services);
    const delivery = { projectId: 'demo', jobId, scheduledAt: '2026-03-02T09:15:00.000Z' };

    const [one, two] = await Promise.all([deliverCronRun(deps, delivery), deliverCronRun(deps, delivery)]);
    const delivered = [one, two].filter((run) => run !== undefined);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({
      status: 'completed',
      attempt: 1,
      scheduledAt: delivery.scheduledAt,
    });

    // Later, a retried delivery of the same minute (EventBridge may add seconds): still nothing new.
    const late = await deliverCronRun(deps, { ...delivery, scheduledAt: '2026-03-02T09:15:42.000Z' });
    expect(late).toBeUndefined();

    expect(await insertedFor('twice-at-once')).toBe(1);
    const runs = await api.get(`${scope}/cron-jobs/${jobId}/runs`);
    expect(runs.status).toBe(200);
    expect(runs.body.data).toHaveLength(1);
    const [run] = runs.body.data;
    expect(run).toMatchObject({ scheduledAt: delivery.scheduledAt, status: 'completed', attempt: 1 });
    const execution = await runtime.services.executions.getExecution(run.executionId);
    expect(execution).toMatchObject({ status: 'succeeded', actionId: 'record-delivery' });
    expect(execution?.id).toBe(delivered[0]!.executionId);
  });

  it('claims a delivered time in one write that already says running, with its start and execution', async () => {
    const jobId = await createJob('claimed-running');
    const deps = schedulingDeps(runtime.services);
    const delivery = { projectId: 'demo', jobId, scheduledAt: '2026-03-02T11:00:00.000Z' };
    // Watch the real store's writes for this job (decision 0064: nothing written between the due time
    // and the start but the claim).
    const store = runtime.services.schedules;
    const writes: { op: string; status: string; startedAt?: string; executionId?: string }[] = [];
    const { createCronRun, updateCronRun } = store;
    store.createCronRun = (run) => {
      if (run.jobId === jobId) writes.push({ op: 'create', ...pick(run) });
      return createCronRun.call(store, run);
    };
    store.updateCronRun = (run, expected) => {
      if (run.jobId === jobId) writes.push({ op: 'update', ...pick(run) });
      return updateCronRun.call(store, run, expected);
    };
    try {
      const before = Date.now();
      const run = await deliverCronRun(deps, delivery);
      expect(run).toMatchObject({ status: 'completed' });
      expect(writes.map((w) => `${w.op}:${w.status}`)).toEqual(['create:running', 'update:completed']);
      const [claim] = writes;
      expect(claim!.executionId).toBe(run!.executionId);
      expect(new Date(claim!.startedAt!).getTime()).toBeGreaterThanOrEqual(before - 1);
      expect(run!.startedAt).toBe(claim!.startedAt);
    } finally {
      store.createCronRun = createCronRun;
      store.updateCronRun = updateCronRun;
    }
  });

  it('keeps distinct scheduled times of one job apart, each run once', async () => {
    const jobId = await createJob('two-minutes');
    const deps = schedulingDeps(runtime.services);
    const at = (minute: string) => ({
      projectId: 'demo',
      jobId,
      scheduledAt: `2026-03-02T10:${minute}:00.000Z`,
    });
    const results = await Promise.all([
      deliverCronRun(deps, at('00')),
      deliverCronRun(deps, at('01')),
      deliverCronRun(deps, at('00')),
      deliverCronRun(deps, at('01')),
    ]);
    expect(
      results
        .filter((run) => run !== undefined)
        .map((run) => run!.scheduledAt)
        .sort(),
    ).toEqual(['2026-03-02T10:00:00.000Z', '2026-03-02T10:01:00.000Z']);
    expect(await insertedFor('two-minutes')).toBe(2);
    const runs = await api.get(`${scope}/cron-jobs/${jobId}/runs`);
    expect(runs.body.data.map((r: { status: string }) => r.status)).toEqual(['completed', 'completed']);
  });
});
