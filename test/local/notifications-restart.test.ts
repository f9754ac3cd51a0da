/**
 * Nothing is lost on restart (decision 0031): a delivery waiting for its retry when the embedded
 * runtime stops is sent by the next runtime on the same data directory.
 */
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { handler as drainDeliveries } from '../../functions/notification-deliveries.ts';
import type { LocalRuntime } from '../../local/runtime.ts';
import { testPayload } from '../../shared/domain/notifications/messages.ts';
import { apiClient } from '../support/api.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

let database: TestDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
let receiver: WebhookReceiver;
let second: LocalRuntime | undefined;
const base = '/api/v1/projects/demo/notifications';

beforeAll(async () => {
  dir = await tempDir('notify-restart');
  database = await createTestDatabase();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await second?.close();
  await receiver?.close();
  await dir?.remove();
  await database?.drop();
});

it('sends a pending retry after a restart', { timeout: 60_000 }, async () => {
  const first = await startTestRuntime(dir.path, {
    demoDatabaseUrl: database.url,
    notificationRetryDelaysMs: [3_000],
  });
  const api = apiClient(first, await loginToken(first));
  await api.put(`${base}/network-policy`, { allowPrivateNetworks: true });
  const target = await api.post(`${base}/targets`, {
    kind: 'webhook',
    name: 'after restart',
    url: `${receiver.url}/restart`,
    signingSecret: 'a-signing-secret-of-enough-length',
  });
  await api.put('/api/v1/projects/demo/actions/breaks', {
    id: 'breaks',
    name: 'Breaks',
    kind: 'sql',
    dataSourceId: 'demo-postgres',
    statements: [{ title: 'q', sql: 'SELECT * FROM restart_missing' }],
  });
  await api.post(`${base}/rules`, {
    subject: { kind: 'action', id: 'breaks' },
    events: ['failure'],
    targetIds: [target.body.id],
  });
  receiver.answer = (_path, index) => ({ status: index === 0 ? 503 : 200 });
  await api.execute('breaks', {});
  await receiver.waitFor('/restart', 1);
  await first.services.notifications.idle();
  const pending = (await api.get(`${base}/deliveries`)).body.data[0];
  expect(pending).toMatchObject({ status: 'pending', attempts: [{ statusCode: 503 }] });
  await first.close();

  second = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url });
  const requests = await receiver.waitFor('/restart', 2, 15_000);
  expect(requests[1]!.headers['dogu-delivery-id']).toBe(pending.id);
  const again = apiClient(second, await loginToken(second));
  await second.services.notifications.idle();
  const deadline = Date.now() + 5_000;
  let delivered = (await again.get(`${base}/deliveries`)).body.data[0];
  while (delivered.status !== 'succeeded' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    delivered = (await again.get(`${base}/deliveries`)).body.data[0];
  }
  expect(delivered).toMatchObject({ id: pending.id, status: 'succeeded' });
  expect(delivered.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([503, 200]);
});

it('the AWS minute entry point sends what is due', async () => {
  expect(second).toBeDefined();
  const runtime = second!;
  const api = apiClient(runtime, await loginToken(runtime));
  const target = (await api.get(base)).body.targets[0];
  const store = runtime.services.notifications.deps.notificationStore;
  const now = new Date().toISOString();
  // Recorded by a container that froze before its first attempt: nothing in this process knows of it.
  await store.createDelivery({
    id: 'ntf_0193aaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    projectId: 'demo',
    targetId: target.id,
    targetName: target.name,
    targetKind: 'webhook',
    event: 'test',
    payload: testPayload('ntf_0193aaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'demo', now),
    status: 'pending',
    attempts: [],
    maxAttempts: 5,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
    version: 1,
  });
  const before = receiver.received.length;
  await drainDeliveries({}, { awsRequestId: 'drain', functionName: 'test' } as unknown as Context);
  expect(receiver.received.length).toBe(before + 1);
  expect(receiver.received.at(-1)!.headers['dogu-delivery-id']).toBe('ntf_0193aaaaaaaaaaaaaaaaaaaaaaaaaaaa');
  expect((await store.getDelivery('demo', 'ntf_0193aaaaaaaaaaaaaaaaaaaaaaaaaaaa'))?.status).toBe('succeeded');
});
