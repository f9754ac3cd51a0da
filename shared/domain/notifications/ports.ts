/** Ports of notifications: where settings and deliveries live, and how messages leave the service. */
import type { NotificationDelivery, NotificationEvent, NotificationSettings, SmtpSettings } from './model.ts';

/** Anything that finishes work reports it here. It never throws and never waits for a delivery. */
export interface Notifier {
  notify(event: NotificationEvent): Promise<void>;
}

export interface NotificationStore {
  getSettings(projectId: string): Promise<NotificationSettings | undefined>;
  /** Saves only if the stored version is `expectedVersion` (0: none stored yet); false on conflict. */
  saveSettings(settings: NotificationSettings, expectedVersion: number): Promise<boolean>;

  createDelivery(delivery: NotificationDelivery): Promise<void>;
  /** Replaces it only if the stored version is `expectedVersion`; false when another worker came first. */
  updateDelivery(delivery: NotificationDelivery, expectedVersion: number): Promise<boolean>;
  getDelivery(projectId: string, deliveryId: string): Promise<NotificationDelivery | undefined>;
  /** Newest first. */
  listDeliveries(
    projectId: string,
    query: { limit: number; cursor?: string },
  ): Promise<{ deliveries: NotificationDelivery[]; cursor?: string }>;
  /** Pending (and lapsed sending) deliveries of every project whose next attempt is due by `before`, oldest first. */
  listDueDeliveries(before: string, limit: number): Promise<NotificationDelivery[]>;
  /** The earliest next attempt of any unfinished delivery (the embedded timer sleeps until then). */
  nextDueTime(): Promise<string | undefined>;

  /** Whether a subject's last run failed: a success after a failure is a recovery. */
  getSubjectFailing(projectId: string, subjectKey: string): Promise<boolean>;
  putSubjectFailing(projectId: string, subjectKey: string, failing: boolean): Promise<void>;
}

export interface WebhookPost {
  url: string;
  headers: [string, string][];
  body: string;
  /** Loopback and private addresses are refused unless the project allows them. */
  allowPrivateNetworks: boolean;
  timeoutMs: number;
}

export interface MailMessage {
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** The embedded runtime sends through this server; on AWS, SES sends and ignores it. */
  smtp?: SmtpSettings & { password?: string };
  /** The project's rule for the SMTP host's address, as for webhooks. */
  allowPrivateNetworks: boolean;
  timeoutMs: number;
}

/** Where messages leave: node:http with the HTTP connector's SSRF checks, SMTP or SES. */
export interface NotificationChannels {
  /** Resolves with the receiver's status, whatever it is; rejects (DoguError) when there was no answer. */
  post(request: WebhookPost): Promise<{ status: number }>;
  sendMail(message: MailMessage): Promise<void>;
  /** Refuses (DoguError bad_request) a URL that is not http(s) or names a refused address. */
  checkUrl(url: string, allowPrivateNetworks: boolean): Promise<void>;
  /** Refuses (DoguError bad_request) an SMTP host whose address the same rule refuses. */
  checkSmtpHost(host: string, allowPrivateNetworks: boolean): Promise<void>;
}

/** Wakes the delivery worker at a time: a timer in the embedded runtime; on AWS a minute schedule drains. */
export interface DeliveryWakeups {
  wakeAt(at: Date): void;
}
