/**
 * The `notifications` key as exported: the network policy, targets by name with each stored secret
 * as a `…FromEnv` reference, and rules naming targets by name and cron jobs by environment and name.
 */
import { envName, targetPlace } from './export-names.ts';
import type { StoredNotificationTarget } from './management-api.ts';
import { ruleInFileTerms } from './plan-notifications.ts';
import type { ProjectState } from './project-state.ts';

/** The name the file already uses at a place, else `derived` (see export.ts). */
type EnvVarAt = (place: string, derived: string) => string;

export function exportedNotifications(state: ProjectState, envVarAt: EnvVarAt): Record<string, unknown> {
  const { allowPrivateNetworks, targets, rules } = state.notifications;
  const jobs = new Map(
    [...state.cronJobs].flatMap(([environmentId, list]) =>
      list.map((job) => [job.id, { environmentId, job }]),
    ),
  );
  return {
    allowPrivateNetworks,
    targets: [...targets]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((target) => exportedTarget(target, envVarAt)),
    rules: rules
      .map((rule) => {
        const { key, targets: names } = ruleInFileTerms(rule, state);
        const job = rule.subject.kind === 'cron_job' ? jobs.get(rule.subject.id) : undefined;
        const subject = job
          ? { kind: 'cron_job', environment: job.environmentId, name: job.job.name }
          : rule.subject;
        return { key, rule: { subject, events: rule.events, targets: names } };
      })
      .sort((a, b) => a.key.localeCompare(b.key))
      .map(({ rule }) => rule),
  };
}

function exportedTarget(target: StoredNotificationTarget, envVarAt: EnvVarAt): Record<string, unknown> {
  const reference = (field: string, derived: string) => envVarAt(targetPlace(target.name, field), derived);
  const base = { name: target.name, kind: target.kind };
  if (target.kind === 'webhook')
    return {
      ...base,
      url: target.url,
      ...(target.hasSecret
        ? {
            signingSecretFromEnv: reference('signingSecret', `DOGU_WEBHOOK_SECRET_${envName(target.name)}`),
          }
        : {}),
    };
  if (target.kind === 'slack')
    return { ...base, urlFromEnv: reference('url', `DOGU_SLACK_URL_${envName(target.name)}`) };
  const smtp = target.smtp;
  return {
    ...base,
    to: target.to,
    from: target.from,
    ...(smtp
      ? {
          smtp: {
            host: smtp.host,
            port: smtp.port,
            ...(smtp.secure ? { secure: true } : {}),
            ...(smtp.username === undefined ? {} : { username: smtp.username }),
            ...(smtp.hasPassword
              ? {
                  passwordFromEnv: reference('smtp.password', `DOGU_SMTP_PASSWORD_${envName(target.name)}`),
                }
              : {}),
          },
        }
      : {}),
  };
}
