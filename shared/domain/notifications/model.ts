/**
 * Notifications (docs/notifications.md): per project, targets (a signed webhook, a Slack-compatible
 * incoming webhook, e-mail) and rules that say which events of which actions, cron jobs and batches
 * go to which targets. Every delivery is a record in the store: the queue of retries and the log.
 */

export const targetKinds = ['webhook', 'slack', 'email'] as const;
export type TargetKind = (typeof targetKinds)[number];

export const eventTypes = ['failure', 'recovery', 'timeout', 'review_waiting', 'review_decided'] as const;
export type NotificationEventType = (typeof eventTypes)[number];

export const subjectKinds = ['action', 'cron_job', 'batch'] as const;
export type SubjectKind = (typeof subjectKinds)[number];

/** SMTP server of an e-mail target (the embedded runtime sends through it; on AWS, SES sends). */
export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the start (port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  username?: string;
}

/** A target as stored: secret fields only as ciphertext, bound to the project, target and field. */
export interface StoredTarget {
  id: string;
  name: string;
  kind: TargetKind;
  /** webhook: the receiver's URL (not secret; its signing secret is). */
  url?: string;
  /** webhook: the HMAC signing secret; slack: the incoming-webhook URL (it is the credential). */
  secretCiphertext?: string;
  /** slack: the host of the URL, to show which workspace without the secret path. */
  urlHost?: string;
  /** email */
  to?: string[];
  from?: string;
  smtp?: SmtpSettings;
  smtpPasswordCiphertext?: string;
  createdAt: string;
  updatedAt: string;
}

/** What the API answers about a target: never a secret, only whether one is set. */
export interface PublicTarget {
  id: string;
  name: string;
  kind: TargetKind;
  url?: string;
  urlHost?: string;
  hasSecret: boolean;
  to?: string[];
  from?: string;
  smtp?: SmtpSettings & { hasPassword: boolean };
  createdAt: string;
  updatedAt: string;
}

/** "Tell these targets when these events happen to this action / cron job / batches of an action". */
export interface NotificationRule {
  id: string;
  /** `id` '*' matches every action, cron job or batch of the project; a batch rule names its action. */
  subject: { kind: SubjectKind; id: string };
  events: NotificationEventType[];
  targetIds: string[];
  createdAt: string;
  updatedAt: string;
}

export interface NotificationSettings {
  projectId: string;
  /** Targets on loopback or private networks are refused unless the project's admin allows them. */
  allowPrivateNetworks: boolean;
  targets: StoredTarget[];
  rules: NotificationRule[];
  /** Optimistic concurrency: every change is a conditional write on it (0: nothing stored yet). */
  version: number;
  updatedAt: string;
}

/**
 * What happened, as the domain reports it. It carries no arguments, results or secrets: only ids,
 * names, statuses and the error message the execution record already keeps.
 */
export interface NotificationEvent {
  projectId: string;
  environmentId: string;
  subject: { kind: SubjectKind; id: string; name?: string; actionId: string };
  /** succeeded only ever notifies as a recovery (after a failure of the same subject). */
  outcome: 'succeeded' | 'failed' | 'timed_out' | 'review_waiting' | 'review_decided';
  occurredAt: string;
  execution?: {
    id: string;
    status: string;
    via: string;
    error?: { code: string; message: string };
    startedAt?: string;
    finishedAt?: string;
  };
  cronRun?: { scheduledAt: string; attempt: number; status: string; reason?: string };
  batch?: { id: string; progress?: { total: number; success: number; failure: number } };
  review?: {
    id: string;
    status: string;
    requestedBy: string;
    decidedBy?: string;
    expiresAt?: string;
  };
}

/** The JSON body a webhook receives (and the source of the Slack and e-mail texts). */
export interface NotificationPayload {
  /** The delivery id: the same on every attempt, so a receiver can drop a repeat. */
  id: string;
  type: `${SubjectKind}.${NotificationEventType}` | 'test';
  event: NotificationEventType | 'test';
  occurredAt: string;
  project: { id: string };
  environment?: { id: string };
  subject?: NotificationEvent['subject'];
  execution?: NotificationEvent['execution'];
  cronRun?: NotificationEvent['cronRun'];
  batch?: NotificationEvent['batch'];
  review?: NotificationEvent['review'];
  summary: string;
}

export type DeliveryStatus = 'pending' | 'sending' | 'succeeded' | 'failed';

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  durationMs: number;
  /** The receiver's HTTP status, when it answered. */
  statusCode?: number;
  /** Why it failed, in words an admin can act on; never a secret. */
  error?: string;
}

export interface NotificationDelivery {
  id: string;
  projectId: string;
  targetId: string;
  targetName: string;
  targetKind: TargetKind;
  event: NotificationEventType | 'test';
  payload: NotificationPayload;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  maxAttempts: number;
  /** pending: when to try next; sending: when the claim lapses (a worker that died mid-send). */
  nextAttemptAt?: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}
