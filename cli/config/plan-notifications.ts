/**
 * Plans the `notifications` key: the network policy, targets by name (the service makes their ids)
 * and rules. A new target is created with POST and its id, answered by the creation, goes into the
 * rules saved after it; a rule names a cron job by environment and name, which a job the same apply
 * creates gets the same way. Write-only fields (a webhook's signing secret, a Slack URL, an SMTP
 * password) are sent from environment variables, like secrets. Nothing is ever deleted.
 *
 * A rule has no name in the service, so it is found by what it is about: its subject and its set of
 * targets. Its events are what apply compares and updates; a rule with other targets is another rule.
 */
import { fieldChanges } from './diff.ts';
import {
  networkPolicyPath,
  notificationRulePath,
  notificationRulesPath,
  notificationsPath,
  notificationTargetPath,
  notificationTargetsPath,
  type StoredNotificationRule,
  type StoredNotificationTarget,
} from './management-api.ts';
import type { NotificationRuleInFile, NotificationTargetInFile } from './notifications-schema.ts';
import { cronJobId } from './plan-cron-jobs.ts';
import type {
  PlanInput,
  PlannedWrites,
  PlannerResult,
  PlanProblem,
  ServerIds,
  WriteOnlyValue,
  WriteStep,
} from './plan-types.ts';
import type { ProjectState } from './project-state.ts';
import { envValue, writeOnlyValue } from './write-only.ts';

/** Target name → id of the project's targets (the first, where two share a name). */
export function notificationTargetIds(state: ProjectState): Map<string, string> {
  const ids = new Map<string, string>();
  for (const target of state.notifications.targets)
    if (!ids.has(target.name)) ids.set(target.name, target.id);
  return ids;
}

/** A target's fields that can be read back and compared (secrets cannot). */
function comparableTarget(
  target: StoredNotificationTarget | NotificationTargetInFile,
): Record<string, unknown> {
  if (target.kind === 'webhook') return { kind: target.kind, url: target.url };
  if (target.kind === 'slack') return { kind: target.kind };
  const smtp = target.smtp;
  return {
    kind: target.kind,
    to: target.to,
    from: target.from,
    ...(smtp
      ? {
          smtp: {
            host: smtp.host,
            port: smtp.port,
            secure: smtp.secure ?? false,
            ...(smtp.username === undefined ? {} : { username: smtp.username }),
          },
        }
      : {}),
  };
}

/** The write-only fields of a target in the file: where they are, their variable and whether one is stored. */
function secretsOf(
  target: NotificationTargetInFile,
  stored: StoredNotificationTarget | undefined,
): { field: string[]; envVar: string; stored: boolean }[] {
  if (target.kind === 'webhook')
    return [
      { field: ['signingSecret'], envVar: target.signingSecretFromEnv, stored: stored?.hasSecret === true },
    ];
  if (target.kind === 'slack')
    return [{ field: ['url'], envVar: target.urlFromEnv, stored: stored?.hasSecret === true }];
  const envVar = target.smtp?.passwordFromEnv;
  // The service keeps a stored password only while the SMTP host stays the same.
  const kept = stored?.smtp?.hasPassword === true && stored.smtp.host === target.smtp?.host;
  return envVar === undefined ? [] : [{ field: ['smtp', 'password'], envVar, stored: kept }];
}

/** The API's target input: the file's fields, each set secret in its place. */
function targetBody(target: NotificationTargetInFile, values: Map<string, string>): Record<string, unknown> {
  if (target.kind === 'webhook') {
    const { signingSecretFromEnv: _, signingSecret: __, ...rest } = target;
    const secret = values.get('signingSecret');
    return { ...rest, ...(secret === undefined ? {} : { signingSecret: secret }) };
  }
  if (target.kind === 'slack') {
    const { urlFromEnv: _, url: __, ...rest } = target;
    const url = values.get('url');
    return { ...rest, ...(url === undefined ? {} : { url }) };
  }
  const { smtp, ...rest } = target;
  if (!smtp) return rest;
  const { passwordFromEnv: _, password: __, ...settings } = smtp;
  const password = values.get('smtp.password');
  return { ...rest, smtp: { ...settings, ...(password === undefined ? {} : { password }) } };
}

/** Re-reads the settings before a write: the target or rule must still be as the plan read it. */
const settingsGuard = (list: 'targets' | 'rules', id: string, updatedAt: string): WriteStep['guard'] => ({
  field: 'updatedAt',
  expected: updatedAt,
  read: {
    path: notificationsPath,
    select: (answer) =>
      (answer[list] as { id: string; updatedAt: string }[] | undefined)?.find((item) => item.id === id)
        ?.updatedAt,
  },
});

/** How a rule's subject reads in the plan and is matched: `action list-orders`, `cron_job production.Nightly`. */
const subjectLabel = (kind: string, what: string) => `${kind} ${what}`;

function storedSubjectLabel(rule: StoredNotificationRule, state: ProjectState): string {
  if (rule.subject.kind !== 'cron_job' || rule.subject.id === '*')
    return subjectLabel(rule.subject.kind, rule.subject.id);
  for (const [environmentId, jobs] of state.cronJobs) {
    const job = jobs.find((j) => j.id === rule.subject.id);
    if (job) return subjectLabel('cron_job', cronJobId(environmentId, job.name));
  }
  return subjectLabel('cron_job', rule.subject.id);
}

const fileSubjectLabel = ({ subject }: NotificationRuleInFile) =>
  subjectLabel(subject.kind, subject.id ?? cronJobId(subject.environment ?? '', subject.name ?? ''));

/** A rule's identity: its subject and its targets (by name, as a set). */
const ruleKey = (subject: string, targetNames: string[]) =>
  `${subject} → ${[...targetNames].sort().join(', ')}`;
/** The identity of a rule of the file. */
export const fileRuleKey = (rule: NotificationRuleInFile) => ruleKey(fileSubjectLabel(rule), rule.targets);

/** A stored rule's subject and targets as the file names them. */
export function ruleInFileTerms(rule: StoredNotificationRule, state: ProjectState) {
  const names = new Map(state.notifications.targets.map((t) => [t.id, t.name]));
  const targets = rule.targetIds.map((id) => names.get(id) ?? id);
  return {
    subject: storedSubjectLabel(rule, state),
    targets,
    key: ruleKey(storedSubjectLabel(rule, state), targets),
  };
}

export function planNotifications({ config, state, env, projectId }: PlanInput): PlannerResult {
  const problems: PlanProblem[] = [];
  const planned: PlannedWrites[] = [];
  const { allowPrivateNetworks, targets, rules } = config.notifications;
  const stored = state.notifications;

  if (allowPrivateNetworks !== undefined) {
    const change = allowPrivateNetworks === stored.allowPrivateNetworks ? 'unchanged' : 'update';
    planned.push({
      resource: {
        kind: 'notificationPolicy',
        id: 'allowPrivateNetworks',
        filePath: ['notifications', 'allowPrivateNetworks'],
        change,
        fields:
          change === 'update'
            ? [
                {
                  kind: 'changed',
                  path: [],
                  before: stored.allowPrivateNetworks,
                  after: allowPrivateNetworks,
                },
              ]
            : [],
        writeOnly: [],
      },
      writes: [
        { phase: 'notificationPolicy', step: { path: networkPolicyPath, body: { allowPrivateNetworks } } },
      ],
    });
  }

  targets.forEach((target, index) => {
    const filePath = ['notifications', 'targets', index];
    const namesakes = stored.targets.filter((t) => t.name === target.name);
    if (namesakes.length > 1)
      problems.push({
        path: [...filePath, 'name'],
        message: `project '${projectId}' has ${namesakes.length} notification targets named '${target.name}' (${namesakes.map((t) => t.id).join(', ')}), so apply cannot tell which one this is: rename or delete all but one`,
      });
    const current = namesakes[0];
    if (current && current.kind !== target.kind)
      problems.push({
        path: [...filePath, 'kind'],
        message: `target '${target.name}' is a ${current.kind} target in project '${projectId}'; a target's kind cannot change`,
      });
    const values = new Map<string, string>();
    const writeOnly: WriteOnlyValue[] = secretsOf(target, current).map((secret) => {
      const value = envValue(env, secret.envVar);
      if (value !== undefined) values.set(secret.field.join('.'), value);
      return writeOnlyValue(secret.field, secret.envVar, value, secret.stored);
    });
    const before = current ? comparableTarget(current) : undefined;
    const after = comparableTarget(target);
    const fields = before ? fieldChanges(before, after) : [];
    const body = targetBody(target, values);
    planned.push({
      resource: {
        kind: 'notificationTarget',
        id: target.name,
        filePath,
        change: !current
          ? 'create'
          : fields.length > 0 || writeOnly.some((w) => w.status === 'set')
            ? 'update'
            : 'unchanged',
        fields,
        writeOnly,
      },
      writes: [
        {
          phase: 'notificationTargets',
          step: current
            ? {
                path: notificationTargetPath(current.id),
                body,
                guard: settingsGuard('targets', current.id, current.updatedAt),
              }
            : {
                path: notificationTargetsPath,
                method: 'POST',
                body,
                // Rules saved later name the new target by name.
                identifies: { map: 'notificationTargets', key: target.name, field: 'id' },
              },
        },
      ],
    });
  });

  const targetNames = new Set([...stored.targets.map((t) => t.name), ...targets.map((t) => t.name)]);
  const actionIds = new Set([...state.actions.keys(), ...config.actions.map((a) => a.id)]);
  const cronJobNames = new Set([
    ...[...state.cronJobs].flatMap(([environmentId, jobs]) =>
      jobs.map((j) => cronJobId(environmentId, j.name)),
    ),
    ...config.cronJobs.map((j) => cronJobId(j.environment, j.name)),
  ]);
  const storedByKey = new Map<string, StoredNotificationRule[]>();
  for (const rule of stored.rules) {
    const { key } = ruleInFileTerms(rule, state);
    storedByKey.set(key, [...(storedByKey.get(key) ?? []), rule]);
  }
  const firstInFile = new Map<string, number>();
  rules.forEach((rule, index) => {
    const filePath = ['notifications', 'rules', index];
    const key = fileRuleKey(rule);
    const first = firstInFile.get(key);
    if (first !== undefined)
      problems.push({
        path: [...filePath, 'targets'],
        message: `the same subject and targets as notifications.rules[${first}]: put their events in one rule`,
      });
    else firstInFile.set(key, index);
    rule.targets.forEach((name, i) => {
      if (!targetNames.has(name))
        problems.push({
          path: [...filePath, 'targets', i],
          message: `no notification target '${name}' in the file or in project '${projectId}'`,
        });
    });
    const { subject } = rule;
    if (subject.kind !== 'cron_job' && subject.id !== '*' && !actionIds.has(subject.id!))
      problems.push({
        path: [...filePath, 'subject', 'id'],
        message: `no action '${subject.id}' in the file or in project '${projectId}'`,
      });
    if (subject.kind === 'cron_job' && subject.id === undefined) {
      const job = cronJobId(subject.environment!, subject.name!);
      if (!cronJobNames.has(job))
        problems.push({
          path: [...filePath, 'subject', 'name'],
          message: `no cron job '${subject.name}' in environment '${subject.environment}' of the file or of project '${projectId}'`,
        });
    }

    // Two rules of the file are never matched to one stored rule: the second is a duplicate anyway.
    const current = storedByKey.get(key)?.[0];
    const sorted = (events: readonly string[]) => [...events].sort();
    const fields =
      current && sorted(current.events).join() !== sorted(rule.events).join()
        ? [
            // As text, so the plan shows them (a list would only be named).
            {
              kind: 'changed' as const,
              path: ['events'],
              before: current.events.join(', '),
              after: rule.events.join(', '),
            },
          ]
        : [];
    const bodyFor = (ids: ServerIds) => ({
      subject: {
        kind: subject.kind,
        id:
          subject.id ??
          ids.cronJobs.get(cronJobId(subject.environment!, subject.name!)) ??
          cronJobId(subject.environment!, subject.name!),
      },
      events: rule.events,
      targetIds: rule.targets.map((name) => ids.notificationTargets.get(name) ?? name),
    });
    planned.push({
      resource: {
        kind: 'notificationRule',
        id: key,
        filePath,
        change: !current ? 'create' : fields.length > 0 ? 'update' : 'unchanged',
        fields,
        writeOnly: [],
      },
      writes: [
        {
          phase: 'notificationRules',
          step: {
            ...(current
              ? {
                  path: notificationRulePath(current.id),
                  guard: settingsGuard('rules', current.id, current.updatedAt),
                }
              : { path: notificationRulesPath, method: 'POST' as const }),
            body: bodyFor({ principals: new Map(), cronJobs: new Map(), notificationTargets: new Map() }),
            bodyFor,
          },
        },
      ],
    });
  });
  return { planned, problems };
}
