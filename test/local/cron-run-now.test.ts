/** "Run now" on a cron job: one manual run, recorded in the job's history with who started it, retryable, audited. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword } from '../../local/accounts-startup.ts';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let database: TestDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
let admin: ReturnType<typeof apiClient>;
let jobPath: string;
const env = '/api/v1/projects/demo/environments/development';

async function signIn(email: string, password: string) {
  const response = await fetch(`${runtime.url}/public/v1/login/password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return apiClient(runtime, ((await response.json()) as { token: string }).token);
}

beforeAll(async () => {
  dir = await tempDir('run-now');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url });
  admin = apiClient(runtime, await loginToken(runtime));
  const jobs = await admin.get(`${env}/cron-jobs`);
  const job = jobs.body.data.find((j: { name: string }) => j.name === 'Weekday sales report');
  jobPath = `${env}/cron-jobs/${job.id}`;
});
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await database?.drop();
});

describe('run now', () => {
  let scheduledAt: string;

  it('runs the job at once and records a manual run in its history', async () => {
    const reviewer = await signIn('reviewer@dogu.local', demoPassword);
    const ran = await reviewer.post(`${jobPath}/run-now`, {});
    expect(ran.status).toBe(201);
    expect(ran.body).toMatchObject({
      status: 'completed',
      attempt: 1,
      manual: { by: { email: 'reviewer@dogu.local' } },
    });
    expect(ran.body.executionId).toMatch(/^exe_/);
    scheduledAt = ran.body.scheduledAt;
    // Never a whole minute: it cannot take the key of a scheduled time.
    expect(scheduledAt.endsWith(':00.000Z')).toBe(false);
    const history = await admin.get(`${jobPath}/runs`);
    expect(history.body.data.map((r: { scheduledAt: string }) => r.scheduledAt)).toContain(scheduledAt);
    const execution = await admin.get(
      `/public/v1/projects/demo/environments/development/executions/${ran.body.executionId}`,
    );
    expect(execution.body).toMatchObject({ via: 'cron', status: 'succeeded' });
  });

  it('a manual run can be retried like a scheduled one', async () => {
    const retried = await admin.post(`${jobPath}/runs/${encodeURIComponent(scheduledAt)}/retry`, {});
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ scheduledAt, attempt: 2, status: 'completed' });
  });

  it('runs a stopped job too; refuses members without manage_cron_jobs and unknown jobs', async () => {
    expect((await admin.post(`${jobPath}/stop`, {})).status).toBe(200);
    expect((await admin.post(`${jobPath}/run-now`, {})).body.status).toBe('completed');
    await admin.post('/api/v1/users', { email: 'plain@example.com', password: 'quiet river stone 42' });
    await admin.post('/api/v1/projects/demo/members', { email: 'plain@example.com', role: 'member' });
    const plain = await signIn('plain@example.com', 'quiet river stone 42');
    const refused = await plain.post(`${jobPath}/run-now`, {});
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain('manage_cron_jobs');
    expect((await admin.post(`${env}/cron-jobs/cron_nope/run-now`, {})).status).toBe(404);
  });

  it('is in the audit log as cron_job.run_now', async () => {
    const { entries } = await runtime.services.audit.list({
      projectId: 'demo',
      event: 'cron_job.run_now',
      limit: 10,
    });
    expect(entries.map((e) => e.outcome)).toEqual(expect.arrayContaining(['succeeded', 'refused']));
  });
});
