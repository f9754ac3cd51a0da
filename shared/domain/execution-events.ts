/**
 * What a run tells the project's notification rules: its outcome, or a review request waiting or
 * decided. Nothing in an event repeats an argument or secret value (a notification leaves the service).
 */
import type { Action, Execution } from './model.ts';
import type { NotificationEvent } from './notifications/model.ts';
import type { ReviewRequest } from './reviews.ts';

/** An error without argument or secret values, fit for messages that leave the service. */
export interface ShareableError {
  code: string;
  message: string;
}

/**
 * Argument and secret values a notification must not repeat: a database error may quote them
 * ("invalid input syntax for type integer: …"), and a notification leaves the service.
 */
export function sensitiveValues(bound: Record<string, unknown>, values: Record<string, unknown>): string[] {
  const found = new Set<string>();
  const collect = (value: unknown) => {
    if (typeof value === 'string' && value.length >= 3) found.add(value);
    else if (typeof value === 'number' || typeof value === 'bigint') found.add(String(value));
    else if (Array.isArray(value)) value.forEach(collect);
  };
  for (const value of Object.values(bound)) collect(value);
  for (const [name, value] of Object.entries(values)) if (name.startsWith('secrets.')) collect(value);
  // Longest first, so a value containing another is hidden whole.
  return [...found].filter((value) => value.length >= 3).sort((a, b) => b.length - a.length);
}

export const redact = (text: string, sensitive: readonly string[]) =>
  sensitive.reduce((result, value) => result.replaceAll(value, '[redacted]'), text);

export function executionEvent(
  action: Action,
  execution: Execution,
  error: ShareableError | undefined,
): NotificationEvent {
  return {
    projectId: execution.projectId,
    environmentId: execution.environmentId,
    subject: { kind: 'action', id: action.id, name: action.name, actionId: action.id },
    outcome:
      execution.status === 'succeeded'
        ? 'succeeded'
        : execution.status === 'timed_out'
          ? 'timed_out'
          : 'failed',
    occurredAt: execution.finishedAt ?? execution.startedAt,
    execution: {
      id: execution.id,
      status: execution.status,
      via: execution.via,
      ...(error ? { error } : {}),
      startedAt: execution.startedAt,
      ...(execution.finishedAt ? { finishedAt: execution.finishedAt } : {}),
    },
  };
}

/** A review request waiting for approval, or decided: ids and e-mail addresses, never its arguments. */
export function reviewEvent(
  action: Pick<Action, 'id' | 'name'> | { id: string; name?: string },
  review: ReviewRequest,
  outcome: 'review_waiting' | 'review_decided',
  at: string,
): NotificationEvent {
  return {
    projectId: review.projectId,
    environmentId: review.environmentId,
    subject: {
      kind: 'action',
      id: action.id,
      ...(action.name ? { name: action.name } : {}),
      actionId: action.id,
    },
    outcome,
    occurredAt: at,
    review: {
      id: review.id,
      status: review.status,
      requestedBy: review.requestedBy.email,
      ...(review.decidedBy ? { decidedBy: review.decidedBy.email } : {}),
      expiresAt: review.expiresAt,
    },
  };
}
