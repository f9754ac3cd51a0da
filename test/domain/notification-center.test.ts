/**
 * The notification center's rules of matching and delivery, on the real DynamoDB store (dynalite),
 * the real HTTP channel and a real receiver: time-outs count as failures, recoveries are per
 * environment, batch rules name their action, and two workers draining at once send each attempt once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from '../../local/embedded-dynamodb.ts';
import { DynamoDbNotificationStore } from '../../shared/adapters/dynamodb/dynamodb-notification-store.ts';
import { systemClock, uuidV7Ids } from '../../shared/adapters/ids.ts';
import { HttpNotificationChannels } from '../../shared/adapters/notifications/http-notification-channels.ts';
import { SmtpMailer } from '../../shared/adapters/notifications/smtp-mailer.ts';
import { LocalSecretCipher } from '../../shared/adapters/secrets/local-cipher.ts';
import { NotificationCenter, targetSecretContext } from '../../shared/domain/notifications/center.ts';
import type { NotificationEvent, NotificationSettings } from '../../shared/domain/notifications/model.ts';
import { SecretValues } from '../../shared/domain/secret-values.ts';
import { tempDir } from '../support/runtime.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

let dynamo: EmbeddedDynamoDb;
let dir: Awaited<ReturnType<typeof tempDir>>;
let receiver: WebhookReceiver;
let store: DynamoDbNotificationStore;
const channels = new HttpNotificationChannels(new SmtpMailer());
const secrets = new SecretValues(new LocalSecretCipher(new Uint8Array(32).fill(7)));
let project = '';

const center = () =>
  new NotificationCenter({
    notificationStore: store,
    channels,
    wakeups: { wakeAt: () => {} },
    secrets,
    clock: systemClock,
    ids: uuidV7Ids,
    retryDelaysMs: [0],
  });

beforeAll(async () => {
  dir = await tempDir('notification-center');
  dynamo = await startEmbeddedDynamoDb(dir.path, 'dogu');
  store = new DynamoDbNotificationStore(dynamo.client, 'dogu');
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  channels.close();
  await receiver?.close();
  await dynamo?.close();
  await dir?.remove();
});

/** A fresh project with one webhook target (its own path) and these rules. */
beforeEach(() => {
  project = `prj_${uuidV7Ids.next('t')}`;
});

async function configure(rules: NotificationSettings['rules']) {
  const now = new Date().toISOString();
  const settings: NotificationSettings = {
    projectId: project,
    allowPrivateNetworks: true,
    targets: [
      {
        id: 'ntt_1',
        name: 'hook',
        kind: 'webhook',
        url: `${receiver.url}/${project}`,
        secretCiphertext: await secrets.encrypt(
          'a-signing-secret-of-enough-length',
          targetSecretContext(project, 'ntt_1', 'secret'),
        ),
        createdAt: now,
        updatedAt: now,
      },
    ],
    rules,
    version: 1,
    updatedAt: now,
  };
  expect(await store.saveSettings(settings, 0)).toBe(true);
}

const rule = (
  kind: 'action' | 'cron_job' | 'batch',
  id: string,
  events: NotificationSettings['rules'][0]['events'],
) => ({
  id: `ntr_${kind}_${id}`,
  subject: { kind, id },
  events,
  targetIds: ['ntt_1'],
  createdAt: '',
  updatedAt: '',
});

const event = (
  outcome: NotificationEvent['outcome'],
  extra: Partial<NotificationEvent> = {},
): NotificationEvent => ({
  projectId: project,
  environmentId: 'development',
  subject: { kind: 'action', id: 'export', name: 'Export', actionId: 'export' },
  outcome,
  occurredAt: new Date().toISOString(),
  ...extra,
});

const received = () =>
  receiver.received.filter((r) => r.path === `/${project}`).map((r) => JSON.parse(r.body).type);

describe('matching', () => {
  it('sends a time-out to failure rules as a time-out, and nothing to recovery-only rules', async () => {
    await configure([rule('action', 'export', ['failure'])]);
    const notifications = center();
    await notifications.notify(event('timed_out'));
    await notifications.idle();
    expect(received()).toEqual(['action.timeout']);
  });

  it('keeps the failing state per environment', async () => {
    await configure([rule('action', '*', ['recovery'])]);
    const notifications = center();
    await notifications.notify(event('failed'));
    await notifications.notify(event('succeeded', { environmentId: 'production' }));
    await notifications.idle();
    expect(received()).toEqual([]);
    await notifications.notify(event('succeeded'));
    await notifications.notify(event('succeeded'));
    await notifications.idle();
    expect(received()).toEqual(['action.recovery']);
  });

  it('matches batch rules by the action and cron rules by the job', async () => {
    await configure([rule('batch', 'export', ['failure']), rule('cron_job', 'job_9', ['failure'])]);
    const notifications = center();
    await notifications.notify(
      event('failed', {
        subject: { kind: 'batch', id: 'export', actionId: 'export' },
        batch: { id: 'bat_1', progress: { total: 3, success: 1, failure: 2 } },
      }),
    );
    await notifications.notify(
      event('failed', { subject: { kind: 'cron_job', id: 'job_8', actionId: 'export' } }),
    );
    await notifications.notify(
      event('failed', { subject: { kind: 'cron_job', id: 'job_9', actionId: 'export' } }),
    );
    await notifications.notify(event('failed'));
    await notifications.idle();
    expect(received().sort()).toEqual(['batch.failure', 'cron_job.failure']);
  });
});

describe('delivery', () => {
  it('two workers draining at once send each attempt once', async () => {
    await configure([rule('action', 'export', ['failure'])]);
    receiver.answer = (path, index) => ({
      status: path === `/${project}` && index === 0 ? 500 : 200,
      delayMs: 50,
    });
    const first = center();
    await first.notify(event('failed'));
    await first.idle();
    expect(received()).toHaveLength(1);
    const second = center();
    await Promise.all([first.drainDue(), second.drainDue(), first.drainDue(), second.drainDue()]);
    expect(received()).toHaveLength(2);
    const { deliveries } = await store.listDeliveries(project, { limit: 10 });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ status: 'succeeded', version: 5 });
    expect(deliveries[0]!.attempts.map((a) => a.statusCode)).toEqual([500, 200]);
    expect(await store.listDueDeliveries(new Date(Date.now() + 60_000).toISOString(), 10)).toEqual([]);
  });

  it('a store that fails does not fail the caller', async () => {
    // A real store whose table does not exist: every read is refused by DynamoDB itself.
    const logged: string[] = [];
    const broken = new NotificationCenter({
      notificationStore: new DynamoDbNotificationStore(dynamo.client, 'no-such-table'),
      channels,
      wakeups: { wakeAt: () => {} },
      secrets,
      clock: systemClock,
      ids: uuidV7Ids,
      log: (message) => logged.push(message),
    });
    await expect(broken.notify(event('failed'))).resolves.toBeUndefined();
    expect(logged).toEqual(['notification event not recorded']);
  });
});
