/**
 * Notifications through the embedded runtime (issue 13, item 3): real node:http receivers verify the
 * HMAC signature; deliveries are retried after 500, fail after the last attempt, time out on a slow
 * receiver and are all in the delivery log; private targets are refused until allowed; Slack gets
 * its format; a failing cron job notifies, and its recovery too. Nothing secret leaves in a payload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import type { Principal } from '../../shared/domain/model.ts';
import { verifySignature } from '../../shared/domain/notifications/signature.ts';
import type { Role } from '../../shared/domain/roles.ts';
import { deliverCronRun, recoverInterruptedRuns } from '../../shared/domain/scheduling/cron-runs.ts';
import { schedulingDeps } from '../../shared/runtime/services.ts';
import { apiClient } from '../support/api.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';
import { startSmtpReceiver } from '../support/smtp-receiver.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

let runtime: LocalRuntime;
let database: TestDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
let receiver: WebhookReceiver;
const base = '/api/v1/projects/demo/notifications';
const signingSecret = 'whsec_0123456789abcdefghijklmnopqrstuvwxyz';
const retryDelaysMs = [50, 100, 150];

beforeAll(async () => {
  dir = await tempDir('notify');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dir.path, {
    demoDatabaseUrl: database.url,
    notificationRetryDelaysMs: retryDelaysMs,
    notificationTimeoutMs: 500,
  });
  api = apiClient(runtime, await loginToken(runtime));
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await runtime?.close();
  await dir?.remove();
  await database?.drop();
});

async function member(id: string, role: Role) {
  const principal: Principal = { kind: 'user', id, email: `${id}@example.com`, name: id };
  await runtime.services.store
    .createUser({ ...principal, createdAt: new Date().toISOString() })
    .catch(() => {});
  await runtime.services.store.putMembership({ projectId: 'demo', principalId: id, role });
  return apiClient(runtime, (await runtime.services.tokens.issue(principal, 3600)).token);
}

async function putAction(id: string, sql: string, extra: Record<string, unknown> = {}) {
  const response = await api.put(`/api/v1/projects/demo/actions/${id}`, {
    id,
    name: `Action ${id}`,
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    statements: [{ title: 'q', sql }],
    ...extra,
  });
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
}

async function webhookTarget(name: string, path: string) {
  const response = await api.post(`${base}/targets`, {
    kind: 'webhook',
    name,
    url: `${receiver.url}${path}`,
    signingSecret,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as string;
}

async function rule(subject: { kind: string; id: string }, events: string[], targetIds: string[]) {
  const response = await api.post(`${base}/rules`, { subject, events, targetIds });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as string;
}

/** The log entries of one target, once `done` holds for them (or fails after a few seconds). */
async function deliveriesOf(targetId: string, done: (d: { status: string }[]) => boolean) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { body } = await api.get(`${base}/deliveries?limit=200`);
    const mine = body.data.filter((d: { targetId: string }) => d.targetId === targetId);
    if (done(mine)) return mine;
    if (Date.now() > deadline) throw new Error(`deliveries of ${targetId}: ${JSON.stringify(mine)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const settled = (d: { status: string }[]) =>
  d.length > 0 && d.every((x) => x.status === 'succeeded' || x.status === 'failed');

describe('targets', () => {
  it('refuses a loopback target until the project allows private networks', async () => {
    const refused = await api.post(`${base}/targets`, {
      kind: 'webhook',
      name: 'loopback',
      url: `${receiver.url}/hook`,
      signingSecret,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/loopback or private network/);
    expect(refused.body.errors).toEqual([expect.objectContaining({ pointer: '#/url' })]);
    const metadata = await api.post(`${base}/targets`, {
      kind: 'webhook',
      name: 'metadata',
      url: 'http://169.254.169.254/latest',
      signingSecret,
    });
    expect(metadata.status).toBe(400);
    // Issue 24, item 10: an SMTP host follows the same rule, named on its own field.
    const mailTo = (name: string, host: string) =>
      api.post(`${base}/targets`, {
        kind: 'email',
        name,
        to: ['ops@example.com'],
        from: 'dogu@example.com',
        smtp: { host, port: 25, secure: false },
      });
    const loopbackSmtp = await mailTo('smtp-loopback', '127.0.0.1');
    expect(loopbackSmtp.status).toBe(400);
    expect(loopbackSmtp.body.errors).toEqual([
      { pointer: '#/smtp/host', detail: expect.stringMatching(/loopback or private network/) },
    ]);

    const allowed = await api.put(`${base}/network-policy`, { allowPrivateNetworks: true });
    expect(allowed.status).toBe(200);
    expect(allowed.body.allowPrivateNetworks).toBe(true);
    const created = await webhookTarget('receiver', '/hook');
    expect(created).toMatch(/^ntt_/);
    const metadataSmtp = await mailTo('smtp-metadata', '169.254.169.254');
    expect(metadataSmtp.status).toBe(400);
    expect(metadataSmtp.body.errors).toEqual([
      { pointer: '#/smtp/host', detail: expect.stringMatching(/link-local or cloud metadata/) },
    ]);
  });

  it('never answers a secret and checks every field', async () => {
    const { body } = await api.get(base);
    expect(JSON.stringify(body)).not.toContain(signingSecret);
    expect(body.targets[0]).toMatchObject({ kind: 'webhook', hasSecret: true });
    const noSecret = await api.post(`${base}/targets`, {
      kind: 'webhook',
      name: 'x',
      url: `${receiver.url}/x`,
    });
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.errors[0].pointer).toBe('#/signingSecret');
    const badUrl = await api.post(`${base}/targets`, {
      kind: 'webhook',
      name: 'x',
      url: 'ftp://x',
      signingSecret,
    });
    expect(badUrl.status).toBe(422);
    const badRule = await api.post(`${base}/rules`, {
      subject: { kind: 'action', id: 'list-orders' },
      events: ['failure'],
      targetIds: ['ntt_missing'],
    });
    expect(badRule.status).toBe(400);
    expect(badRule.body.errors[0].pointer).toBe('#/targetIds/0');
    const unknownAction = await api.post(`${base}/rules`, {
      subject: { kind: 'action', id: 'no-such-action' },
      events: ['failure'],
      targetIds: [body.targets[0].id],
    });
    expect(unknownAction.status).toBe(400);
  });

  it('sends a signed test notification and logs it', async () => {
    const targetId = await webhookTarget('test target', '/test');
    const sent = await api.post(`${base}/targets/${targetId}/test`, {});
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({
      status: 'succeeded',
      event: 'test',
      attempts: [{ attempt: 1, statusCode: 200 }],
    });
    const [request] = await receiver.waitFor('/test', 1);
    const header = String(request!.headers['dogu-signature']);
    expect(verifySignature(signingSecret, request!.body, header, Math.floor(Date.now() / 1000))).toBe(true);
    expect(
      verifySignature(
        'another-secret-of-enough-length',
        request!.body,
        header,
        Math.floor(Date.now() / 1000),
      ),
    ).toBe(false);
    // Outside the replay window the same signature is refused.
    expect(verifySignature(signingSecret, request!.body, header, Math.floor(Date.now() / 1000) + 301)).toBe(
      false,
    );
    expect(request!.headers['dogu-delivery-id']).toBe(sent.body.id);
    expect(JSON.parse(request!.body)).toMatchObject({ type: 'test', project: { id: 'demo' } });
  });
});

describe('deliveries', () => {
  it('retries after a 500 and succeeds; the payload has no arguments or secrets', async () => {
    await api.put('/api/v1/projects/demo/environments/development/secrets/notify_token', {
      value: 'sk-never-sent',
    });
    await putAction(
      'fails-once',
      'SELECT {{ code }}::int / 0 AS x, length({{ secrets.notify_token }}) AS n',
      {
        parameters: [{ name: 'code', kind: 'text', required: true }],
      },
    );
    const targetId = await webhookTarget('flaky', '/flaky');
    receiver.answer = (path, index) => ({ status: path === '/flaky' && index === 0 ? 500 : 200 });
    await rule({ kind: 'action', id: 'fails-once' }, ['failure'], [targetId]);
    const run = await api.execute('fails-once', { code: '4711-secret-argument' });
    expect(run.status).toBe(422);

    const [delivery] = await deliveriesOf(targetId, settled);
    expect(delivery).toMatchObject({ status: 'succeeded', event: 'failure' });
    expect(delivery.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
    expect(delivery.attempts[0].error).toBe('The receiver answered HTTP 500.');
    const requests = await receiver.waitFor('/flaky', 2);
    const payload = JSON.parse(requests[1]!.body);
    expect(payload).toMatchObject({ type: 'action.failure', subject: { kind: 'action', id: 'fails-once' } });
    for (const request of requests) {
      expect(request.body).not.toContain('4711-secret-argument');
      expect(request.body).not.toContain('sk-never-sent');
      expect(
        verifySignature(
          signingSecret,
          request.body,
          String(request.headers['dogu-signature']),
          Math.floor(Date.now() / 1000),
        ),
      ).toBe(true);
    }
  });

  it('marks a delivery failed after the last attempt, without holding up the run', async () => {
    await putAction('always-fails', 'SELECT * FROM no_such_table');
    const targetId = await webhookTarget('broken', '/broken');
    receiver.answer = (path) => ({ status: path === '/broken' ? 500 : 200 });
    await rule({ kind: 'action', id: 'always-fails' }, ['failure'], [targetId]);
    const started = Date.now();
    const run = await api.execute('always-fails', {});
    expect(run.status).toBe(422);
    expect(Date.now() - started).toBeLessThan(2_000);
    const [delivery] = await deliveriesOf(targetId, settled);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts).toHaveLength(retryDelaysMs.length + 1);
    expect(delivery).not.toHaveProperty('nextAttemptAt');
  });

  it('times out a slow receiver and retries it', async () => {
    await putAction('fails-slowly', 'SELECT * FROM still_no_table');
    const targetId = await webhookTarget('slow', '/slow');
    receiver.answer = (path, index) => ({
      status: 200,
      ...(path === '/slow' && index === 0 ? { delayMs: 2_000 } : {}),
    });
    await rule({ kind: 'action', id: 'fails-slowly' }, ['failure'], [targetId]);
    const started = Date.now();
    await api.execute('fails-slowly', {});
    expect(Date.now() - started).toBeLessThan(1_500);
    const [delivery] = await deliveriesOf(targetId, settled);
    expect(delivery.status).toBe('succeeded');
    expect(delivery.attempts[0].error).toMatch(/timed out after 500 ms/);
    expect(delivery.attempts[1].statusCode).toBe(200);
  });

  it('sends Slack-compatible messages', async () => {
    const created = await api.post(`${base}/targets`, {
      kind: 'slack',
      name: 'slack',
      url: `${receiver.url}/services/T000/B000/XXXX`,
    });
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain('/services/T000');
    expect(created.body).toMatchObject({ urlHost: new URL(receiver.url).host, hasSecret: true });
    await putAction('slack-fails', 'SELECT * FROM slack_missing');
    await rule({ kind: 'action', id: 'slack-fails' }, ['failure', 'recovery'], [created.body.id]);
    await api.execute('slack-fails', {});
    const [request] = await receiver.waitFor('/services/T000/B000/XXXX', 1);
    const body = JSON.parse(request!.body);
    expect(body.text).toMatch(/Action 'Action slack-fails' in demo\/development failed/);
    expect(body.blocks[0]).toMatchObject({ type: 'section', text: { type: 'mrkdwn' } });
    expect(request!.headers['dogu-signature']).toBeUndefined();
  });

  it('refuses to deliver to a private address once the project no longer allows it', async () => {
    const targetId = await webhookTarget('later refused', '/refused');
    await api.put(`${base}/network-policy`, { allowPrivateNetworks: false });
    try {
      const sent = await api.post(`${base}/targets/${targetId}/test`, {});
      expect(sent.body.status).toBe('failed');
      expect(sent.body.attempts[0].error).toMatch(/loopback or private network/);
      expect(receiver.received.filter((r) => r.path === '/refused')).toHaveLength(0);
    } finally {
      await api.put(`${base}/network-policy`, { allowPrivateNetworks: true });
    }
  });
});

describe('e-mail', () => {
  it('sends through the target SMTP server; the password is never answered', async () => {
    const smtp = await startSmtpReceiver({ user: 'dogu', password: 'smtp-secret-pass' });
    try {
      const created = await api.post(`${base}/targets`, {
        kind: 'email',
        name: 'ops mail',
        to: ['ops@example.com'],
        from: 'dogu@example.com',
        smtp: {
          host: '127.0.0.1',
          port: smtp.port,
          secure: false,
          username: 'dogu',
          password: 'smtp-secret-pass',
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(JSON.stringify(created.body)).not.toContain('smtp-secret-pass');
      expect(created.body.smtp).toMatchObject({ hasPassword: true, username: 'dogu' });
      const sent = await api.post(`${base}/targets/${created.body.id}/test`, {});
      expect(sent.body, JSON.stringify(sent.body)).toMatchObject({
        status: 'succeeded',
        targetKind: 'email',
      });
      expect(smtp.messages).toHaveLength(1);
      expect(smtp.messages[0]).toMatchObject({ from: 'dogu@example.com', to: ['ops@example.com'] });
      // A change without the password keeps the stored one.
      const renamed = await api.put(`${base}/targets/${created.body.id}`, {
        kind: 'email',
        name: 'ops mail 2',
        to: ['ops@example.com'],
        from: 'dogu@example.com',
        smtp: { host: '127.0.0.1', port: smtp.port, secure: false, username: 'dogu' },
      });
      expect(renamed.body.smtp.hasPassword).toBe(true);
      expect((await api.post(`${base}/targets/${created.body.id}/test`, {})).body.status).toBe('succeeded');
      expect(smtp.messages).toHaveLength(2);
    } finally {
      await smtp.close();
    }
  });
});

describe('cron jobs and reviews', () => {
  it('notifies a failing cron job run, then its recovery', async () => {
    await putAction('nightly', 'SELECT * FROM nightly_missing');
    const job = await api.post('/api/v1/projects/demo/environments/development/cron-jobs', {
      name: 'nightly export',
      schedule: { kind: 'cron', expression: '0 3 * * ? *' },
      actionId: 'nightly',
    });
    expect(job.status, JSON.stringify(job.body)).toBe(201);
    const targetId = await webhookTarget('cron', '/cron');
    await rule({ kind: 'cron_job', id: job.body.id }, ['failure', 'recovery'], [targetId]);

    // The embedded scheduler's entry point, for one scheduled time.
    const deps = schedulingDeps(runtime.services);
    const scheduledAt = '2026-01-05T18:00:00.000Z';
    const run = await deliverCronRun(deps, { projectId: 'demo', jobId: job.body.id, scheduledAt });
    expect(run?.status).toBe('error');
    const [failure] = await receiver.waitFor('/cron', 1);
    expect(JSON.parse(failure!.body)).toMatchObject({
      type: 'cron_job.failure',
      subject: { kind: 'cron_job', id: job.body.id, name: 'nightly export', actionId: 'nightly' },
      cronRun: { scheduledAt, status: 'error', attempt: 1 },
    });

    await putAction('nightly', 'SELECT 1 AS ok');
    const retried = await api.post(
      `/api/v1/projects/demo/environments/development/cron-jobs/${job.body.id}/runs/${scheduledAt}/retry`,
      {},
    );
    expect(retried.body.status).toBe('completed');
    const requests = await receiver.waitFor('/cron', 2);
    expect(JSON.parse(requests[1]!.body)).toMatchObject({
      type: 'cron_job.recovery',
      cronRun: { attempt: 2 },
    });
    // A second success is no news.
    await deliverCronRun(deps, {
      projectId: 'demo',
      jobId: job.body.id,
      scheduledAt: '2026-01-06T18:00:00.000Z',
    });
    await runtime.services.notifications.idle();
    expect(receiver.received.filter((r) => r.path === '/cron')).toHaveLength(2);

    // A run the runtime was running when it stopped is settled at start-up as interrupted: a failure.
    const interruptedAt = '2026-01-07T18:00:00.000Z';
    await runtime.services.schedules.createCronRun({
      jobId: job.body.id,
      projectId: 'demo',
      environmentId: 'development',
      scheduledAt: interruptedAt,
      attempt: 1,
      status: 'running',
      startedAt: interruptedAt,
      updatedAt: interruptedAt,
    });
    expect(await recoverInterruptedRuns(deps)).toBeGreaterThanOrEqual(1);
    const all = await receiver.waitFor('/cron', 3);
    expect(JSON.parse(all[2]!.body)).toMatchObject({
      type: 'cron_job.failure',
      cronRun: { scheduledAt: interruptedAt, status: 'error', reason: expect.stringMatching(/^Interrupted/) },
    });
  });

  it('notifies a review waiting for approval', async () => {
    await putAction('guarded', 'SELECT 1 AS ok', { review: { required: true } });
    const targetId = await webhookTarget('reviews', '/reviews');
    await rule({ kind: 'action', id: '*' }, ['review_waiting', 'review_decided'], [targetId]);
    const requested = await api.execute('guarded', {});
    expect(requested.status, JSON.stringify(requested.body)).toBe(202);
    const [request] = await receiver.waitFor('/reviews', 1);
    expect(JSON.parse(request!.body)).toMatchObject({
      type: 'action.review_waiting',
      review: { status: 'pending', requestedBy: 'admin@dogu.local' },
    });

    const reviewer = await member('usr_reviewer', 'operations_lead');
    const reviewId = requested.body.reviewRequest.id;
    const approved = await reviewer.post(`/api/v1/projects/demo/review-requests/${reviewId}/approve`, {});
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const requests = await receiver.waitFor('/reviews', 2);
    expect(JSON.parse(requests[1]!.body)).toMatchObject({
      type: 'action.review_decided',
      review: { id: reviewId, status: 'approved', decidedBy: 'usr_reviewer@example.com' },
    });
  });
});

describe('permissions and the log', () => {
  it('lets members read the settings and the log but not change them', async () => {
    const plain = await member('usr_plain', 'member');
    expect((await plain.get(base)).status).toBe(200);
    expect((await plain.get(`${base}/deliveries`)).status).toBe(200);
    const refused = await plain.post(`${base}/rules`, {
      subject: { kind: 'action', id: '*' },
      events: ['failure'],
      targetIds: ['ntt_x'],
    });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/manage_project/);
    expect((await plain.put(`${base}/network-policy`, { allowPrivateNetworks: false })).status).toBe(403);
  });

  it('pages the delivery log and refuses a bad page size', async () => {
    const first = await api.get(`${base}/deliveries?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.has_more).toBe(true);
    const next = await api.get(`${base}/deliveries?limit=2&cursor=${first.body.next_cursor}`);
    expect(next.body.data[0].id < first.body.data[1].id).toBe(true);
    expect((await api.get(`${base}/deliveries?limit=0`)).status).toBe(400);
    expect((await api.get(`${base}/deliveries?cursor=nonsense!`)).status).toBe(400);
  });

  it('audits every change without its secrets', async () => {
    const { entries } = await runtime.services.audit.list({ projectId: 'demo', limit: 1000 });
    const events = entries.map((entry) => entry.event);
    for (const event of [
      'notification.network_policy',
      'notification_target.create',
      'notification_target.test',
      'notification_rule.create',
    ]) {
      expect(events).toContain(event);
    }
    const created = entries.find((entry) => entry.event === 'notification_target.create');
    expect(created?.target.id).toMatch(/^ntt_/);
    const text = JSON.stringify(entries);
    expect(text).not.toContain(signingSecret);
    expect(text).not.toContain('smtp-secret-pass');
    expect(text).not.toContain('/services/T000');
  });

  it('refuses to delete a target a rule uses', async () => {
    const { body } = await api.get(base);
    const used = body.rules[0].targetIds[0];
    expect((await api.delete(`${base}/targets/${used}`)).status).toBe(409);
    expect((await api.delete(`${base}/rules/${body.rules[0].id}`)).status).toBe(204);
  });
});
