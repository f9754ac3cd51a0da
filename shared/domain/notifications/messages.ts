/** The payload of an event and its Slack and e-mail renderings. No arguments, results or secrets. */
import type { NotificationEvent, NotificationEventType, NotificationPayload, SubjectKind } from './model.ts';

const subjectWords: Record<SubjectKind, string> = {
  action: 'Action',
  cron_job: 'Cron job',
  batch: 'Batch of action',
};

export function payloadOf(
  deliveryId: string,
  type: NotificationEventType,
  event: NotificationEvent,
): NotificationPayload {
  return {
    id: deliveryId,
    type: `${event.subject.kind}.${type}`,
    event: type,
    occurredAt: event.occurredAt,
    project: { id: event.projectId },
    environment: { id: event.environmentId },
    subject: event.subject,
    ...(event.execution ? { execution: event.execution } : {}),
    ...(event.cronRun ? { cronRun: event.cronRun } : {}),
    ...(event.batch ? { batch: event.batch } : {}),
    ...(event.review ? { review: event.review } : {}),
    summary: shorten(summaryOf(type, event), maxSummaryLength),
  };
}

/** Slack refuses section texts over 3,000 characters; an e-mail subject is cut further below. */
const maxSummaryLength = 1_000;
const shorten = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

export function testPayload(deliveryId: string, projectId: string, at: string): NotificationPayload {
  return {
    id: deliveryId,
    type: 'test',
    event: 'test',
    occurredAt: at,
    project: { id: projectId },
    summary: `Test notification from Dogu project '${projectId}'.`,
  };
}

function summaryOf(type: NotificationEventType, event: NotificationEvent): string {
  const name = event.subject.name ? `'${event.subject.name}'` : `'${event.subject.id}'`;
  const what = `${subjectWords[event.subject.kind]} ${name} in ${event.projectId}/${event.environmentId}`;
  const error = event.execution?.error?.message ?? event.cronRun?.reason;
  switch (type) {
    case 'failure':
      if (event.batch?.progress) {
        return `${what} finished with ${event.batch.progress.failure} of ${event.batch.progress.total} rows failed.`;
      }
      return `${what} failed${error ? `: ${error}` : '.'}`;
    case 'timeout':
      return `${what} timed out${error ? `: ${error}` : '.'}`;
    case 'recovery':
      return `${what} succeeded again after a failure.`;
    case 'review_waiting':
      return `${what}: review request ${event.review?.id ?? ''} by ${event.review?.requestedBy ?? 'someone'} is waiting for approval.`;
    case 'review_decided':
      return `${what}: review request ${event.review?.id ?? ''} was ${event.review?.status ?? 'decided'}${event.review?.decidedBy ? ` by ${event.review.decidedBy}` : ''}.`;
  }
}

const icons: Record<NotificationPayload['event'], string> = {
  failure: ':red_circle:',
  timeout: ':hourglass:',
  recovery: ':large_green_circle:',
  review_waiting: ':eyes:',
  review_decided: ':white_check_mark:',
  test: ':wave:',
};

/** A Slack-compatible incoming-webhook body: `text` for notifications and clients without blocks. */
export function slackBody(payload: NotificationPayload): { text: string; blocks: unknown[] } {
  const text = `${icons[payload.event]} ${payload.summary}`;
  const facts = [
    payload.environment ? `*Environment:* ${payload.environment.id}` : undefined,
    payload.execution ? `*Execution:* ${payload.execution.id} (${payload.execution.status})` : undefined,
    payload.cronRun ? `*Scheduled at:* ${payload.cronRun.scheduledAt}` : undefined,
    payload.batch ? `*Batch:* ${payload.batch.id}` : undefined,
    `*Event:* ${payload.type}`,
  ].filter((fact): fact is string => fact !== undefined);
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: escapeMrkdwn(text) } },
      { type: 'context', elements: facts.map((fact) => ({ type: 'mrkdwn', text: escapeMrkdwn(fact) })) },
    ],
  };
}

/** Slack reads &, < and > as control characters in mrkdwn. */
const escapeMrkdwn = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export function mailOf(payload: NotificationPayload): { subject: string; text: string } {
  const subject = `[Dogu] ${payload.summary}`.slice(0, 200);
  const text = [
    payload.summary,
    '',
    `Event: ${payload.type}`,
    `Project: ${payload.project.id}`,
    ...(payload.environment ? [`Environment: ${payload.environment.id}`] : []),
    ...(payload.execution ? [`Execution: ${payload.execution.id} (${payload.execution.status})`] : []),
    ...(payload.cronRun ? [`Scheduled at: ${payload.cronRun.scheduledAt}`] : []),
    ...(payload.batch ? [`Batch: ${payload.batch.id}`] : []),
    ...(payload.review ? [`Review request: ${payload.review.id} (${payload.review.status})`] : []),
    `Delivery: ${payload.id}`,
  ].join('\n');
  return { subject: subject.replace(/[\r\n]+/g, ' '), text };
}
