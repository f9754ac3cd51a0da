/**
 * The notification center: turns domain events into deliveries and delivers them with retries
 * (docs/decisions/0031-notification-delivery.md). A delivery is written to the store before its
 * first attempt, so a crash or restart loses nothing: the worker picks up every due delivery.
 * Nothing here blocks or fails the run that reported the event.
 */
import { DoguError } from '../errors.ts';
import type { Clock, IdGenerator } from '../ports.ts';
import type { SecretValues } from '../secret-values.ts';
import { mailOf, payloadOf, slackBody, testPayload } from './messages.ts';
import type {
  DeliveryAttempt,
  NotificationDelivery,
  NotificationEvent,
  NotificationEventType,
  NotificationPayload,
  NotificationRule,
  NotificationSettings,
  StoredTarget,
} from './model.ts';
import type { DeliveryWakeups, NotificationChannels, NotificationStore, Notifier } from './ports.ts';
import { signatureHeader, signPayload } from './signature.ts';

export interface NotificationCenterDeps {
  notificationStore: NotificationStore;
  channels: NotificationChannels;
  wakeups: DeliveryWakeups;
  secrets: SecretValues;
  clock: Clock;
  ids: IdGenerator;
  /** Waits between attempts; attempts = its length + 1. Default 10 s, 1 min, 5 min, 30 min. */
  retryDelaysMs?: readonly number[];
  /** Per attempt; default 5 s. */
  timeoutMs?: number;
  log?: (message: string, detail: Record<string, unknown>) => void;
}

export const defaultRetryDelaysMs = [10_000, 60_000, 5 * 60_000, 30 * 60_000] as const;
const defaultTimeoutMs = 5_000;
/** A claim lapses after this: a worker that died mid-send leaves the delivery to the next one. */
const claimMs = 2 * 60_000;
const settingsCacheMs = 5_000;
const drainBatch = 25;

export const targetSecretContext = (
  projectId: string,
  targetId: string,
  field: 'secret' | 'smtpPassword',
) => ({
  project: projectId,
  notificationTarget: targetId,
  field,
});

export class NotificationCenter implements Notifier {
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly settingsCache = new Map<
    string,
    { at: number; settings: NotificationSettings | undefined }
  >();
  private draining: Promise<void> | undefined;

  constructor(readonly deps: NotificationCenterDeps) {}

  get maxAttempts() {
    return (this.deps.retryDelaysMs ?? defaultRetryDelaysMs).length + 1;
  }

  async notify(event: NotificationEvent): Promise<void> {
    try {
      const settings = await this.settings(event.projectId);
      if (!settings || settings.rules.length === 0) return;
      const deliveries = await this.deliveriesFor(settings, event);
      for (const delivery of deliveries) {
        await this.deps.notificationStore.createDelivery(delivery);
        this.background(this.attempt(delivery));
      }
    } catch (error) {
      this.log('notification event not recorded', { projectId: event.projectId, error: messageOf(error) });
    }
  }

  /** Settings changed in this process: read them again on the next event. */
  forget(projectId: string) {
    this.settingsCache.delete(projectId);
  }

  /** Every background attempt has settled (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** One attempt now, no retries: the console's "send test" shows its outcome at once. */
  async sendTest(settings: NotificationSettings, target: StoredTarget): Promise<NotificationDelivery> {
    const now = this.deps.clock.now().toISOString();
    const id = this.deps.ids.next('ntf');
    const delivery = this.newDelivery(
      settings.projectId,
      target,
      'test',
      testPayload(id, settings.projectId, now),
      1,
    );
    delivery.id = id;
    await this.deps.notificationStore.createDelivery(delivery);
    return this.attempt(delivery, settings);
  }

  /** Attempts every due delivery (the embedded timer, the AWS minute schedule, start-up). */
  drainDue(): Promise<void> {
    this.draining ??= this.drainOnce().finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }

  private async drainOnce() {
    for (;;) {
      const due = await this.deps.notificationStore.listDueDeliveries(
        this.deps.clock.now().toISOString(),
        drainBatch,
      );
      for (const delivery of due) await this.attempt(delivery);
      if (due.length < drainBatch) break;
    }
    const next = await this.deps.notificationStore.nextDueTime();
    if (next) this.deps.wakeups.wakeAt(new Date(next));
  }

  private async deliveriesFor(settings: NotificationSettings, event: NotificationEvent) {
    const rules = settings.rules.filter((rule) => matchesSubject(rule, event));
    if (rules.length === 0) return [];
    const type = await this.eventTypeOf(event, rules);
    if (!type) return [];
    const wanted = new Set<string>();
    for (const rule of rules) {
      const accepts = rule.events.includes(type) || (type === 'timeout' && rule.events.includes('failure'));
      if (accepts) for (const targetId of rule.targetIds) wanted.add(targetId);
    }
    const deliveries: NotificationDelivery[] = [];
    for (const target of settings.targets.filter((t) => wanted.has(t.id))) {
      const id = this.deps.ids.next('ntf');
      deliveries.push({
        ...this.newDelivery(settings.projectId, target, type, payloadOf(id, type, event), this.maxAttempts),
        id,
      });
    }
    return deliveries;
  }

  /** A success notifies only as a recovery: when the same subject's previous run had failed. */
  private async eventTypeOf(
    event: NotificationEvent,
    rules: NotificationRule[],
  ): Promise<NotificationEventType | undefined> {
    if (event.outcome === 'review_waiting' || event.outcome === 'review_decided') return event.outcome;
    const tracksOutcome = rules.some((rule) =>
      rule.events.some((type) => type === 'failure' || type === 'timeout' || type === 'recovery'),
    );
    if (!tracksOutcome) return undefined;
    // Per environment: a failure in development does not make a success in production a recovery.
    const key = `${event.subject.kind}#${event.environmentId}#${event.subject.id}`;
    const store = this.deps.notificationStore;
    const wasFailing = await store.getSubjectFailing(event.projectId, key);
    const failing = event.outcome !== 'succeeded';
    if (failing !== wasFailing) await store.putSubjectFailing(event.projectId, key, failing);
    if (event.outcome === 'failed') return 'failure';
    if (event.outcome === 'timed_out') return 'timeout';
    return wasFailing ? 'recovery' : undefined;
  }

  private newDelivery(
    projectId: string,
    target: StoredTarget,
    event: NotificationDelivery['event'],
    payload: NotificationPayload,
    maxAttempts: number,
  ): NotificationDelivery {
    const now = this.deps.clock.now().toISOString();
    return {
      id: payload.id,
      projectId,
      targetId: target.id,
      targetName: target.name,
      targetKind: target.kind,
      event,
      payload,
      status: 'pending',
      attempts: [],
      maxAttempts,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
  }

  /** Claims the delivery (one conditional write), sends once and records the outcome. */
  private async attempt(
    delivery: NotificationDelivery,
    knownSettings?: NotificationSettings,
  ): Promise<NotificationDelivery> {
    const store = this.deps.notificationStore;
    const claimedAt = this.deps.clock.now();
    const claimed: NotificationDelivery = {
      ...delivery,
      status: 'sending',
      nextAttemptAt: new Date(claimedAt.getTime() + claimMs).toISOString(),
      updatedAt: claimedAt.toISOString(),
      version: delivery.version + 1,
    };
    if (!(await store.updateDelivery(claimed, delivery.version))) return delivery;
    const number = delivery.attempts.length + 1;
    const started = Date.now();
    let record: DeliveryAttempt;
    try {
      const settings = knownSettings ?? (await this.settings(delivery.projectId, true));
      const target = settings?.targets.find((t) => t.id === delivery.targetId);
      if (!settings || !target) throw new DoguError('not_found', 'The target was deleted.');
      const status = await this.send(settings, target, delivery.payload);
      record = { attempt: number, at: claimedAt.toISOString(), durationMs: Date.now() - started };
      if (status !== undefined) record.statusCode = status;
      if (status !== undefined && (status < 200 || status > 299)) {
        record.error = `The receiver answered HTTP ${status}.`;
      }
    } catch (error) {
      record = {
        attempt: number,
        at: claimedAt.toISOString(),
        durationMs: Date.now() - started,
        error: messageOf(error),
      };
    }
    const now = this.deps.clock.now();
    const attempts = [...delivery.attempts, record];
    const delays = this.deps.retryDelaysMs ?? defaultRetryDelaysMs;
    const retry = record.error !== undefined && number < delivery.maxAttempts && !isPermanent(record.error);
    const { nextAttemptAt: _lapse, ...rest } = claimed;
    const settled: NotificationDelivery = {
      ...rest,
      attempts,
      status: record.error === undefined ? 'succeeded' : retry ? 'pending' : 'failed',
      ...(retry
        ? {
            nextAttemptAt: new Date(now.getTime() + (delays[number - 1] ?? delays.at(-1) ?? 0)).toISOString(),
          }
        : {}),
      updatedAt: now.toISOString(),
      version: claimed.version + 1,
    };
    await store.updateDelivery(settled, claimed.version);
    if (settled.nextAttemptAt) this.deps.wakeups.wakeAt(new Date(settled.nextAttemptAt));
    return settled;
  }

  /** The receiver's HTTP status (webhook, Slack) or undefined (e-mail, accepted by the server). */
  private async send(
    settings: NotificationSettings,
    target: StoredTarget,
    payload: NotificationPayload,
  ): Promise<number | undefined> {
    const timeoutMs = this.deps.timeoutMs ?? defaultTimeoutMs;
    const secret = () =>
      this.deps.secrets.decrypt(
        target.secretCiphertext ?? '',
        targetSecretContext(settings.projectId, target.id, 'secret'),
      );
    if (target.kind === 'webhook') {
      const body = JSON.stringify(payload);
      const timestamp = Math.floor(this.deps.clock.now().getTime() / 1000);
      const { status } = await this.deps.channels.post({
        url: target.url ?? '',
        body,
        headers: [
          ['content-type', 'application/json'],
          [signatureHeader, signPayload(await secret(), body, timestamp)],
          ['Dogu-Timestamp', String(timestamp)],
          ['Dogu-Delivery-Id', payload.id],
          ['Dogu-Event', payload.type],
        ],
        allowPrivateNetworks: settings.allowPrivateNetworks,
        timeoutMs,
      });
      return status;
    }
    if (target.kind === 'slack') {
      const { status } = await this.deps.channels.post({
        url: await secret(),
        body: JSON.stringify(slackBody(payload)),
        headers: [['content-type', 'application/json']],
        allowPrivateNetworks: settings.allowPrivateNetworks,
        timeoutMs,
      });
      return status;
    }
    const password = target.smtpPasswordCiphertext
      ? await this.deps.secrets.decrypt(
          target.smtpPasswordCiphertext,
          targetSecretContext(settings.projectId, target.id, 'smtpPassword'),
        )
      : undefined;
    await this.deps.channels.sendMail({
      from: target.from ?? '',
      to: target.to ?? [],
      ...mailOf(payload),
      ...(target.smtp ? { smtp: { ...target.smtp, ...(password ? { password } : {}) } } : {}),
      allowPrivateNetworks: settings.allowPrivateNetworks,
      timeoutMs,
    });
    return undefined;
  }

  private async settings(projectId: string, fresh = false) {
    const cached = this.settingsCache.get(projectId);
    if (!fresh && cached && Date.now() - cached.at < settingsCacheMs) return cached.settings;
    const settings = await this.deps.notificationStore.getSettings(projectId);
    this.settingsCache.set(projectId, { at: Date.now(), settings });
    return settings;
  }

  private background(work: Promise<unknown>) {
    const tracked = work.catch((error) =>
      this.log('notification delivery failed', { error: messageOf(error) }),
    );
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }

  private log(message: string, detail: Record<string, unknown>) {
    (this.deps.log ?? defaultLog)(message, detail);
  }
}

function matchesSubject(rule: NotificationRule, event: NotificationEvent) {
  if (rule.subject.kind !== event.subject.kind) return false;
  const id = event.subject.kind === 'batch' ? event.subject.actionId : event.subject.id;
  return rule.subject.id === '*' || rule.subject.id === id;
}

/** A deleted target will not come back: no point in retrying. */
const isPermanent = (error: string) => error === 'The target was deleted.';

function messageOf(error: unknown): string {
  if (error instanceof DoguError) return error.message.slice(0, 500);
  return 'Unexpected error while sending.';
}

const defaultLog = (message: string, detail: Record<string, unknown>) =>
  console.error(JSON.stringify({ level: 'WARN', message, ...detail }));
