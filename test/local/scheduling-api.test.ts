/**
 * Cron jobs, runs, reservations, async jobs and batches through the API of a real embedded runtime
 * (dynalite + PGlite). Deliveries are driven through the same domain entry point the scheduler and
 * the EventBridge target call, so no test waits for a wall-clock minute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import type { Principal } from '../../shared/domain/model.ts';
import { deliverCronRun } from '../../shared/domain/scheduling/cron-runs.ts';
import { runReservation } from '../../shared/domain/scheduling/reservations.ts';
import { schedulingDeps } from '../../shared/runtime/services.ts';
import { type ApiResponse, apiClient } from '../support/api.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let runtime: LocalRuntime;
let admin: ReturnType<typeof apiClient>;
let token: string;
const env = '/api/v1/projects/demo/environments/development';
const publicEnv = '/public/v1/projects/demo/environments/development';

const echoAction = {
  id: 'sched-echo',
  name: 'Scheduled echo',
  kind: 'sql',
  dataSourceId: 'demo-postgres',
  parameters: [
    { name: 'n', kind: 'number', required: true, integer: true, max: 1000 },
    {
      name: 'color',
      kind: 'text',
      choices: [
        { value: 'r', label: 'Red' },
        { value: 'g', label: 'Green' },
      ],
    },
  ],
  statements: [
    {
      title: 'echo',
      sql: 'SELECT CAST({{ n }} AS int) AS n, CAST({{ color }} AS text) AS color, CAST({{ currentUser.email }} AS text) AS who',
    },
  ],
};

const everyDay = { by: 'weekday', weekdays: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] };
const jobBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Nightly echo',
  schedule: { kind: 'form', days: everyDay, times: { kind: 'fixed', times: ['02:30'] } },
  actionId: 'sched-echo',
  arguments: { n: 7 },
  ...overrides,
});

async function member(name: string, role: 'member' | 'operations_lead' | 'developer') {
  const principal: Principal = { kind: 'user', id: `usr_${name}`, email: `${name}@example.com`, name };
  await runtime.services.store.createUser({ ...principal, createdAt: new Date().toISOString() });
  await runtime.services.store.putMembership({ projectId: 'demo', principalId: principal.id, role });
  return apiClient(runtime, (await runtime.services.tokens.issue(principal, 3600)).token);
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  dir = await tempDir('scheduling-api');
  runtime = await startTestRuntime(dir.path);
  token = await loginToken(runtime);
  admin = apiClient(runtime, token);
  expect((await admin.put('/api/v1/projects/demo/actions/sched-echo', echoAction)).status).toBeLessThan(300);
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

describe('cron jobs', () => {
  it('creates a running job in Asia/Tokyo run by its creator, with the next two planned runs', async () => {
    const created = await admin.post(`${env}/cron-jobs`, jobBody());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Nightly echo',
      state: 'running',
      timeZone: 'Asia/Tokyo',
      overlap: 'allow',
      executor: { kind: 'user', email: 'admin@dogu.local' },
      setBy: { email: 'admin@dogu.local' },
      expressions: ['30 2 * * ? *'],
      version: 1,
    });
    const [first, second] = created.body.nextRuns.map((t: string) => new Date(t));
    // 02:30 JST is 17:30 UTC, one day apart, both in the future.
    expect(first.getUTCHours()).toBe(17);
    expect(first.getUTCMinutes()).toBe(30);
    expect(second.getTime() - first.getTime()).toBe(24 * 3600_000);
    expect(first.getTime()).toBeGreaterThan(Date.now());

    const list = await admin.get(`${env}/cron-jobs`);
    expect(list.body.data.map((j: { id: string }) => j.id)).toContain(created.body.id);
    const detail = await admin.get(`${env}/cron-jobs/${created.body.id}`);
    expect(detail.body).toMatchObject({
      id: created.body.id,
      arguments: { n: 7 },
      nextRuns: created.body.nextRuns,
    });
    // The scheduler armed it.
    expect(runtime.scheduling.scheduler.size).toBeGreaterThan(0);
  });

  it('refuses bad input with precise messages and pointers', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ name: 'x'.repeat(129) }, '#/name', /1 to 128/],
      [{ name: '' }, '#/name', /1 to 128/],
      [{ schedule: { kind: 'cron', expression: '61 * * * *' } }, '#/schedule/expression', /61/],
      [{ timeZone: 'Mars/Olympus' }, '#/timeZone', /Mars\/Olympus/],
      [{ actionId: 'no-such-action' }, '#/actionId', /does not exist|no such action/],
      [{ arguments: { n: 'seven' } }, '#/arguments/n', /number/],
      [{ arguments: {} }, '#/arguments/n', /required/],
      [{ arguments: { n: 1, color: 'x'.repeat(70_000) } }, '#/arguments', /at most 65536 bytes/],
      // A schedule in another shape says what it must be (not "Invalid discriminator value").
      [
        { schedule: { type: 'cron', cron: '0 9 * * *' } },
        '#/schedule/kind',
        /^The field 'schedule\/kind' must be 'form' or 'cron'\. must be 'form' or 'cron'$/,
      ],
      [{ schedule: { kind: 'cron', cron: '0 9 * * *' } }, '#/schedule/expression', /is required/],
      [
        {
          schedule: {
            kind: 'form',
            days: { by: 'weekday', weekdays: [] },
            times: { kind: 'fixed', times: ['09:00'] },
          },
        },
        '#/schedule/days/weekdays',
        /must have at least 1 item/,
      ],
    ];
    for (const [override, pointer, message] of cases) {
      const response = await admin.post(`${env}/cron-jobs`, jobBody(override));
      expect(response.status, JSON.stringify(override)).toBe(422);
      const error = response.body.errors.find((e: { pointer: string }) => e.pointer === pointer);
      expect(error, `${pointer} in ${JSON.stringify(response.body.errors)}`).toBeDefined();
      expect(`${response.body.detail} ${error.detail}`).toMatch(message);
    }
    // A 128-character name in Japanese counts characters, not bytes.
    expect((await admin.post(`${env}/cron-jobs`, jobBody({ name: '夜'.repeat(128) }))).status).toBe(201);
  });

  it('lets members view and the four managing roles manage (spec 5.3)', async () => {
    const viewer = await member('viewer', 'member');
    const lead = await member('opslead', 'operations_lead');
    expect((await viewer.get(`${env}/cron-jobs`)).status).toBe(200);
    const refused = await viewer.post(`${env}/cron-jobs`, jobBody());
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/manage_cron_jobs/);
    const byLead = await lead.post(`${env}/cron-jobs`, jobBody({ name: 'Lead job' }));
    expect(byLead.status).toBe(201);
    expect(byLead.body.executor.email).toBe('opslead@example.com');
    // Another manager's edit keeps the executor; a user executor can only be yourself.
    const edited = await admin.put(
      `${env}/cron-jobs/${byLead.body.id}`,
      jobBody({ name: 'Lead job, renamed' }),
    );
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      executor: { email: 'opslead@example.com' },
      setBy: { email: 'admin@dogu.local' },
    });
    const impersonate = await admin.put(
      `${env}/cron-jobs/${byLead.body.id}`,
      jobBody({ executor: { kind: 'user', id: 'usr_viewer' } }),
    );
    expect(impersonate.status).toBe(422);
    expect(impersonate.body.errors[0].pointer).toBe('#/executor/id');
  });

  it('runs as a service account only when the account may run the action (spec 2.8)', async () => {
    const account = (
      await admin.post('/api/v1/projects/demo/service-accounts', { name: 'nightly', role: 'developer' })
    ).body;
    const job = await admin.post(
      `${env}/cron-jobs`,
      jobBody({ name: 'As account', executor: { kind: 'service_account', id: account.id } }),
    );
    expect(job.status).toBe(201);
    expect(job.body.executor).toEqual({ kind: 'service_account', id: account.id, email: account.email });

    // The run names the account and currentUser.* are empty strings.
    const deps = schedulingDeps(runtime.services);
    const run = await deliverCronRun(deps, {
      projectId: 'demo',
      jobId: job.body.id,
      scheduledAt: '2026-01-05T17:30:00Z',
    });
    expect(run).toMatchObject({ status: 'completed', attempt: 1 });
    const execution = await admin.get(`${publicEnv}/executions/${run!.executionId}`);
    expect(execution.body).toMatchObject({
      via: 'cron',
      executedBy: { kind: 'service_account', id: account.id },
      origin: { cronJobId: job.body.id, scheduledAt: '2026-01-05T17:30:00.000Z' },
    });

    // The audit log names the account as the one who ran it.
    const audit = await admin.get('/api/v1/projects/demo/audit-log?event=execution.run');
    const entry = audit.body.data.find(
      (e: { details?: { executionId?: string } }) => e.details?.executionId === run!.executionId,
    );
    expect(entry).toMatchObject({
      actor: { kind: 'service_account', id: account.id },
      details: { via: 'cron' },
    });

    // An action the account may not run: the change is refused and the job keeps its action.
    const restricted = {
      ...echoAction,
      id: 'sched-restricted',
      permission: { mode: 'restricted', users: ['usr_admin-not-the-account'] },
    };
    const saved = await admin.put('/api/v1/projects/demo/actions/sched-restricted', restricted);
    expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
    const change = await admin.put(
      `${env}/cron-jobs/${job.body.id}`,
      jobBody({ name: 'As account', actionId: 'sched-restricted' }),
    );
    expect(change.status).toBe(422);
    expect(change.body.errors.map((e: { pointer: string }) => e.pointer)).toContain('#/actionId');
    expect((await admin.get(`${env}/cron-jobs/${job.body.id}`)).body.actionId).toBe('sched-echo');

    // An environment with usage restricted takes no service-account executor.
    const restrictedEnv = '/api/v1/projects/demo/environments/restricted';
    const made = await admin.put(restrictedEnv, {
      id: 'restricted',
      name: 'Restricted',
      usageRestricted: true,
    });
    expect(made.status).toBe(201);
    const inRestricted = await admin.post(
      `${restrictedEnv}/cron-jobs`,
      jobBody({ executor: { kind: 'service_account', id: account.id } }),
    );
    expect(inRestricted.status).toBe(422);
    expect(inRestricted.body.errors[0]).toMatchObject({
      pointer: '#/executor',
      detail: expect.stringMatching(/restricts usage/),
    });

    const other = await admin.post(
      `${env}/cron-jobs`,
      jobBody({ executor: { kind: 'service_account', id: 'sa_not_in_this_project' } }),
    );
    expect(other.status).toBe(422);
    expect(other.body.errors[0]).toMatchObject({ pointer: '#/executor/id' });
  });

  it('delivers each scheduled time once, records history, retries and overlap skips', async () => {
    const job = (
      await admin.post(`${env}/cron-jobs`, jobBody({ name: 'Deliveries', arguments: { n: 3, color: 'Red' } }))
    ).body;
    const deps = schedulingDeps(runtime.services);
    const at = '2026-02-01T17:30:00.000Z';
    const deliveries = await Promise.all([
      deliverCronRun(deps, { projectId: 'demo', jobId: job.id, scheduledAt: at }),
      deliverCronRun(deps, { projectId: 'demo', jobId: job.id, scheduledAt: '2026-02-01T17:30:41Z' }),
      deliverCronRun(deps, { projectId: 'demo', jobId: job.id, scheduledAt: at }),
    ]);
    expect(deliveries.filter(Boolean)).toHaveLength(1);
    const history = await admin.get(`${env}/cron-jobs/${job.id}/runs`);
    expect(history.body.data).toHaveLength(1);
    expect(history.body.data[0]).toMatchObject({ scheduledAt: at, attempt: 1, status: 'completed' });
    expect(history.body.data[0].executionId).toMatch(/^exe_/);

    const retried = await admin.post(`${env}/cron-jobs/${job.id}/runs/${encodeURIComponent(at)}/retry`, {});
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ attempt: 2, status: 'completed' });
    expect(retried.body.previousAttempts).toHaveLength(1);
    expect(retried.body.executionId).not.toBe(history.body.data[0].executionId);

    // A later time; then filters by status and by scheduled-time range.
    await deliverCronRun(deps, { projectId: 'demo', jobId: job.id, scheduledAt: '2026-02-02T17:30:00Z' });
    const ranged = await admin.get(
      `${env}/cron-jobs/${job.id}/runs?from=2026-02-02T00:00:00Z&to=2026-02-03T00:00:00Z`,
    );
    expect(ranged.body.data.map((r: { scheduledAt: string }) => r.scheduledAt)).toEqual([
      '2026-02-02T17:30:00.000Z',
    ]);
    expect((await admin.get(`${env}/cron-jobs/${job.id}/runs?status=cancelled`)).body.data).toEqual([]);
    expect((await admin.get(`${env}/cron-jobs/${job.id}/runs?status=done`)).status).toBe(400);

    // Overlap policy skip: while a run is running, the next time is recorded as cancelled with the reason.
    const skip = (await admin.post(`${env}/cron-jobs`, jobBody({ name: 'No overlap', overlap: 'skip' })))
      .body;
    await runtime.services.schedules.createCronRun({
      jobId: skip.id,
      projectId: 'demo',
      environmentId: 'development',
      scheduledAt: '2026-03-01T00:00:00.000Z',
      attempt: 1,
      status: 'running',
      updatedAt: new Date().toISOString(),
    });
    const skipped = await deliverCronRun(deps, {
      projectId: 'demo',
      jobId: skip.id,
      scheduledAt: '2026-03-01T00:01:00Z',
    });
    expect(skipped).toMatchObject({
      status: 'cancelled',
      reason: expect.stringMatching(/previous run was still running/),
    });
    // A run left running for longer than any run may last lost its worker: it is settled, and the
    // next time runs instead of being skipped for ever.
    const stale = (await runtime.services.schedules.getCronRun(skip.id, '2026-03-01T00:00:00.000Z'))!;
    const anHourAgo = new Date(Date.now() - 3600_000).toISOString();
    await runtime.services.schedules.updateCronRun(
      { ...stale, startedAt: anHourAgo, updatedAt: anHourAgo },
      { status: 'running', attempt: 1 },
    );
    const next = await deliverCronRun(deps, {
      projectId: 'demo',
      jobId: skip.id,
      scheduledAt: '2026-03-01T00:02:00Z',
    });
    expect(next).toMatchObject({ status: 'completed' });
    expect(await runtime.services.schedules.getCronRun(skip.id, '2026-03-01T00:00:00.000Z')).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/did not finish within its time limit/),
    });
    // The same for a run stuck running when a person retries it: settled first, then run again.
    const stuckAt = '2026-03-01T00:03:00.000Z';
    await runtime.services.schedules.createCronRun({
      jobId: skip.id,
      projectId: 'demo',
      environmentId: 'development',
      scheduledAt: stuckAt,
      attempt: 1,
      status: 'running',
      startedAt: anHourAgo,
      updatedAt: anHourAgo,
    });
    const stuckRetry = await admin.post(
      `${env}/cron-jobs/${skip.id}/runs/${encodeURIComponent(stuckAt)}/retry`,
      {},
    );
    expect(stuckRetry.body).toMatchObject({ attempt: 2, status: 'completed' });
    expect(stuckRetry.body.previousAttempts[0]).toMatchObject({ status: 'error' });
  });

  it('stops and resumes; the times missed while stopped are recorded as cancelled; delete is final', async () => {
    const job = (await admin.post(`${env}/cron-jobs`, jobBody({ name: 'Stop me', state: 'stopped' }))).body;
    expect(job).toMatchObject({ state: 'stopped', nextRuns: [] });
    const deps = schedulingDeps(runtime.services);
    // A delivery racing the stop is recorded, not run.
    const raced = await deliverCronRun(deps, {
      projectId: 'demo',
      jobId: job.id,
      scheduledAt: '2026-04-01T17:30:00Z',
    });
    expect(raced).toMatchObject({ status: 'cancelled', reason: expect.stringMatching(/stopped/) });

    // Pretend it was stopped three days ago: resuming records the three 02:30 JST times since.
    const stored = (await runtime.services.schedules.getCronJob('demo', job.id))!;
    const threeDaysAgo = new Date(Date.now() - 3 * 24 * 3600_000 + 60_000).toISOString();
    await runtime.services.schedules.saveCronJob(
      { ...stored, stoppedAt: threeDaysAgo, version: stored.version + 1 },
      stored.version,
    );
    const resumed = await admin.post(`${env}/cron-jobs/${job.id}/resume`, {});
    expect(resumed.status).toBe(200);
    expect(resumed.body.state).toBe('running');
    expect(resumed.body.nextRuns).toHaveLength(2);
    const cancelled = await admin.get(`${env}/cron-jobs/${job.id}/runs?status=cancelled`);
    expect(cancelled.body.data.length).toBeGreaterThanOrEqual(3);
    expect(cancelled.body.data.every((r: { reason: string }) => /stopped/.test(r.reason))).toBe(true);

    expect((await admin.post(`${env}/cron-jobs/${job.id}/stop`, {})).body.state).toBe('stopped');
    expect((await admin.delete(`${env}/cron-jobs/${job.id}`)).status).toBe(204);
    expect((await admin.get(`${env}/cron-jobs/${job.id}`)).status).toBe(404);
    expect((await runtime.services.schedules.listCronRuns(job.id, {})).runs).toEqual([]);
  });
});

describe('reservations', () => {
  it('reserves, lists, runs once and cannot be cancelled after it ran', async () => {
    const runAt = new Date(Date.now() + 3600_000).toISOString();
    const created = await admin.post(`${env}/reservations`, {
      actionId: 'sched-echo',
      arguments: { n: 1 },
      runAt,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'scheduled', timeZone: 'Asia/Tokyo' });
    expect((await admin.get(`${env}/reservations`)).body.data.map((r: { id: string }) => r.id)).toContain(
      created.body.id,
    );
    const deps = schedulingDeps(runtime.services);
    const [first, second] = await Promise.all([
      runReservation(deps, { projectId: 'demo', reservationId: created.body.id }),
      runReservation(deps, { projectId: 'demo', reservationId: created.body.id }),
    ]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    const ran = await admin.get(`${env}/reservations/${created.body.id}`);
    expect(ran.body).toMatchObject({ status: 'completed', executionId: expect.stringMatching(/^exe_/) });
    const cancel = await admin.post(`${env}/reservations/${created.body.id}/cancel`, {});
    expect(cancel.status).toBe(409);
  });

  it('cancels a scheduled reservation and refuses past times', async () => {
    const runAt = new Date(Date.now() + 7200_000).toISOString();
    const created = (
      await admin.post(`${env}/reservations`, { actionId: 'sched-echo', arguments: { n: 2 }, runAt })
    ).body;
    const cancelled = await admin.post(`${env}/reservations/${created.id}/cancel`, {});
    expect(cancelled.body).toMatchObject({ status: 'cancelled' });
    const past = await admin.post(`${env}/reservations`, {
      actionId: 'sched-echo',
      arguments: { n: 2 },
      runAt: '2020-01-01T00:00:00Z',
    });
    expect(past.status).toBe(422);
    expect(past.body.errors[0].pointer).toBe('#/runAt');
  });

  it('reads a local runAt in the zone sent with it, refuses one without a zone, and applies the DST rules (issue 24, item 3)', async () => {
    const reserve = (runAt: string, timeZone?: string) =>
      admin.post(`${env}/reservations`, {
        actionId: 'sched-echo',
        arguments: { n: 3 },
        runAt,
        ...(timeZone ? { timeZone } : {}),
      });
    const year = new Date().getUTCFullYear() + 1;
    // 06:41 in Tokyo is 21:41 UTC the day before, whatever the zone of the server or the browser.
    const tokyo = await reserve(`${year}-01-10T06:41`, 'Asia/Tokyo');
    expect(tokyo.status).toBe(201);
    expect(tokyo.body).toMatchObject({ runAt: `${year}-01-09T21:41:00.000Z`, timeZone: 'Asia/Tokyo' });
    const offset = await reserve(`${year}-01-10T06:41:00-08:00`, 'Asia/Tokyo');
    expect(offset.body).toMatchObject({ runAt: `${year}-01-10T14:41:00.000Z`, timeZone: 'Asia/Tokyo' });

    const bare = await reserve(`${year}-01-10T06:41`);
    expect(bare.status).toBe(422);
    expect(bare.body.errors).toEqual([
      { pointer: '#/runAt', detail: expect.stringContaining("never read in the server's zone") },
    ]);
    for (const text of [`${year}-02-30T06:41`, 'tomorrow', `${year}-01-10`]) {
      expect((await reserve(text, 'Asia/Tokyo')).status, text).toBe(422);
    }

    // US daylight saving time: it begins on the second Sunday of March (02:00 → 03:00) and ends on
    // the first Sunday of November (02:00 → 01:00).
    const sunday = (month: number, nth: number) => {
      const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
      return String(1 + ((7 - first) % 7) + 7 * (nth - 1)).padStart(2, '0');
    };
    const gap = await reserve(`${year}-03-${sunday(3, 2)}T02:30`, 'America/Los_Angeles');
    expect(gap.status).toBe(422);
    expect(gap.body.errors[0].detail).toContain('does not exist in America/Los_Angeles');
    const twice = await reserve(`${year}-11-${sunday(11, 1)}T01:30`, 'America/Los_Angeles');
    if (new Date(`${year}-11-${sunday(11, 1)}T09:30:00Z`).getTime() - Date.now() < 366 * 24 * 3600_000) {
      // The first 01:30 (PDT, UTC−7), not the second (PST, UTC−8).
      expect(twice.body).toMatchObject({ runAt: `${year}-11-${sunday(11, 1)}T08:30:00.000Z` });
    }
    for (const created of [tokyo, offset, twice].filter((r) => r.status === 201)) {
      await admin.post(`${env}/reservations/${created.body.id}/cancel`, {});
    }
  });
});

describe('async jobs', () => {
  it('answers 202 with a queued execution and returns the rows once it finished', async () => {
    const started = await admin.post(
      `/public/v1/projects/demo/environments/development/actions/sched-echo/executions`,
      { arguments: { n: 42 }, async: true },
    );
    expect(started.status).toBe(202);
    // The queued answer shows the arguments that were sent (not an empty object).
    expect(started.body.execution).toMatchObject({
      status: 'queued',
      via: 'async_job',
      arguments: { n: 42 },
    });
    expect(started.headers.get('location')).toBe(`${publicEnv}/executions/${started.body.execution.id}`);
    const done = await until(
      () => admin.get(`${publicEnv}/executions/${started.body.execution.id}`),
      (r) => r.body.status === 'succeeded',
    );
    expect(done.body.results[0].rows).toEqual([{ n: 42, color: '', who: 'admin@dogu.local' }]);
    const bad = await admin.post(`${publicEnv}/actions/sched-echo/executions`, {
      arguments: {},
      async: true,
    });
    expect(bad.status).toBe(422);
    expect(
      (await admin.post(`${publicEnv}/actions/sched-echo/executions`, { arguments: {}, async: 'yes' }))
        .status,
    ).toBe(400);
  });
});

describe('batches', () => {
  it('runs form rows with progress, retries failed rows, and downloads results', async () => {
    const rows = [{ n: 1 }, { n: 2, color: 'g' }, { n: 3 }];
    const created = await admin.post(`${env}/actions/sched-echo/batches`, { rows, concurrency: 2 });
    expect(created.status).toBe(202);
    expect(created.body.progress).toMatchObject({ total: 3 });
    expect(created.body.batch.source).toBe('rows');
    const done = await until(
      () => admin.get(`${env}/batches/${created.body.batch.id}`),
      (r) => r.body.batch.status === 'finished',
    );
    expect(done.body.progress).toEqual({ total: 3, waiting: 0, running: 0, success: 3, failure: 0 });
    expect(done.body.rows.map((r: { status: string }) => r.status)).toEqual([
      'success',
      'success',
      'success',
    ]);
    const results = await fetch(`${runtime.url}${env}/batches/${created.body.batch.id}/results`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(results.headers.get('content-type')).toMatch(/text\/csv/);
    const csv = await results.text();
    expect(csv).toMatch(/success/);
    expect(csv.split(/\r\n/).filter(Boolean)).toHaveLength(4);
    // The batch is audited when posted and when finished (rows have their execution records).
    const audit = await admin.get(`/api/v1/projects/demo/audit-log?target=${created.body.batch.id}`);
    expect(audit.body.data.map((e: { event: string }) => e.event)).toContain('batch.finish');
    expect(audit.body.data.find((e: { event: string }) => e.event === 'batch.finish').details).toMatchObject({
      success: 3,
      failure: 0,
    });
    // A row too large for the store is refused before anything runs, naming the row.
    const huge = await admin.post(`${env}/actions/sched-echo/batches`, {
      rows: [{ n: 1 }, { n: 2, color: 'x'.repeat(20_000) }],
    });
    expect(huge.status).toBe(413);
    expect(huge.body.errors).toEqual([
      { pointer: '#/rows/1', detail: expect.stringMatching(/at most 12288/) },
    ]);
    // Nothing failed: a retry is refused.
    expect((await admin.post(`${env}/batches/${created.body.batch.id}/retry`, {})).status).toBe(409);
  });

  it('takes a CSV with labels converted to values, reports every bad cell, and retries failures', async () => {
    const template = await fetch(`${runtime.url}${env}/actions/sched-echo/batch-template`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect((await template.text()).replace(/^\uFEFF/, '').trim()).toBe('n,color');
    const post = (csv: string) =>
      fetch(`${runtime.url}${env}/actions/sched-echo/batches`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
        body: csv,
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as ApiResponse['body'] }));
    const bad = await post('n,color\r\nten,Red\r\n5,Green\r\n2000,\r\n');
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['#/rows/2/n', '#/rows/4/n']);

    const ok = await post('n,color\r\n10,Red\r\n11,Green\r\n12,\r\n');
    expect(ok.status).toBe(202);
    // The console numbers a file's rows as the file does (and as these pointers do): from row 2.
    expect(ok.body.batch.source).toBe('csv');
    const done = await until(
      () => admin.get(`${env}/batches/${ok.body.batch.id}`),
      (r) => r.body.batch.status === 'finished',
    );
    expect(done.body.rows.map((r: { arguments: unknown }) => r.arguments)).toEqual([
      { n: 10, color: 'r' },
      { n: 11, color: 'g' },
      { n: 12, color: '' },
    ]);
    const list = await admin.get(`${env}/batches`);
    expect(list.body.data.find((b: { id: string }) => b.id === ok.body.batch.id).progress.success).toBe(3);
  });

  it('retries only the failed rows as a new attempt', async () => {
    const failing = {
      ...echoAction,
      id: 'sched-divide',
      statements: [{ title: 'divide', sql: 'SELECT 10 / CAST({{ n }} AS int) AS q' }],
    };
    expect((await admin.put('/api/v1/projects/demo/actions/sched-divide', failing)).status).toBeLessThan(300);
    const created = await admin.post(`${env}/actions/sched-divide/batches`, {
      rows: [{ n: 1 }, { n: 0 }, { n: 5 }],
    });
    const done = await until(
      () => admin.get(`${env}/batches/${created.body.batch.id}`),
      (r) => r.body.batch.status === 'finished',
    );
    expect(done.body.rows.map((r: { status: string }) => r.status)).toEqual([
      'success',
      'failure',
      'success',
    ]);
    expect(done.body.rows[1].error.message).toMatch(/division by zero/);
    const retry = await admin.post(`${env}/batches/${created.body.batch.id}/retry`, {});
    expect(retry.status).toBe(202);
    expect(retry.body).toMatchObject({ retried: 1, batch: { attempt: 2, status: 'running' } });
    const again = await until(
      () => admin.get(`${env}/batches/${created.body.batch.id}`),
      (r) => r.body.batch.status === 'finished',
    );
    expect(again.body.rows[1]).toMatchObject({ status: 'failure', attempt: 2 });
    expect(again.body.rows[0]).toMatchObject({ status: 'success', attempt: 1 });
  });
});
