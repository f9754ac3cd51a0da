/** Shapes and paths of a project's notification settings (docs/notifications.md). */
import { pathOf } from '../../api/client.ts';

export type TargetKind = 'webhook' | 'slack' | 'email';
export const eventTypes = ['failure', 'recovery', 'timeout', 'review_waiting', 'review_decided'] as const;
export type EventType = (typeof eventTypes)[number];
export const subjectKinds = ['action', 'cron_job', 'batch'] as const;
export type SubjectKind = (typeof subjectKinds)[number];

export interface Target {
  id: string;
  name: string;
  kind: TargetKind;
  url?: string;
  urlHost?: string;
  hasSecret: boolean;
  to?: string[];
  from?: string;
  smtp?: { host: string; port: number; secure: boolean; username?: string; hasPassword: boolean };
}

export interface Rule {
  id: string;
  subject: { kind: SubjectKind; id: string };
  events: EventType[];
  targetIds: string[];
}

export interface Settings {
  allowPrivateNetworks: boolean;
  targets: Target[];
  rules: Rule[];
}

export interface Delivery {
  id: string;
  targetId: string;
  targetName: string;
  targetKind: TargetKind;
  event: EventType | 'test';
  status: 'pending' | 'sending' | 'succeeded' | 'failed';
  attempts: { attempt: number; at: string; durationMs: number; statusCode?: number; error?: string }[];
  nextAttemptAt?: string;
  createdAt: string;
}

const base = (p: string) => pathOf`/api/v1/projects/${p}/notifications`;

export const notificationPaths = {
  settings: base,
  networkPolicy: (p: string) => `${base(p)}/network-policy`,
  targets: (p: string) => `${base(p)}/targets`,
  target: (p: string, id: string) => `${base(p)}${pathOf`/targets/${id}`}`,
  test: (p: string, id: string) => `${base(p)}${pathOf`/targets/${id}/test`}`,
  rules: (p: string) => `${base(p)}/rules`,
  rule: (p: string, id: string) => `${base(p)}${pathOf`/rules/${id}`}`,
  deliveries: (p: string) => `${base(p)}/deliveries?limit=50`,
  actions: (p: string) => pathOf`/api/v1/projects/${p}/actions`,
  cronJobs: (p: string, e: string) => pathOf`/api/v1/projects/${p}/environments/${e}/cron-jobs`,
};

/** 32 random bytes, base64url, made in the browser: the server never shows a signing secret. */
export function generateSigningSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const text = btoa(String.fromCharCode(...bytes));
  return `whsec_${text.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}`;
}
