/**
 * Managing a project's notification targets and rules, and reading its delivery log. Changes need
 * the project's `manage_project` right; members who may view the project see the settings (never a
 * secret) and the log. Every change is one conditional write of the project's settings record.
 */
import { badRequest, DoguError, notFound } from '../errors.ts';
import { authorize } from '../manage/access.ts';
import type { Principal } from '../model.ts';
import type { Store } from '../ports.ts';
import type { SchedulingStore } from '../scheduling/ports.ts';
import { type NotificationCenter, targetSecretContext } from './center.ts';
import type { RuleInput, TargetInput } from './input.ts';
import type { NotificationRule, NotificationSettings, PublicTarget, StoredTarget } from './model.ts';

export interface NotificationManageDeps {
  store: Store;
  notifications: NotificationCenter;
  schedules?: SchedulingStore;
}

const maxTargets = 50;
const maxRules = 200;

export function publicTarget(target: StoredTarget): PublicTarget {
  const { secretCiphertext, smtpPasswordCiphertext, smtp, ...rest } = target;
  return {
    ...rest,
    hasSecret: secretCiphertext !== undefined,
    ...(smtp ? { smtp: { ...smtp, hasPassword: smtpPasswordCiphertext !== undefined } } : {}),
  };
}

export function publicSettings(settings: NotificationSettings) {
  return {
    allowPrivateNetworks: settings.allowPrivateNetworks,
    targets: settings.targets.map(publicTarget),
    rules: settings.rules,
    version: settings.version,
  };
}

export async function getNotificationSettings(
  deps: NotificationManageDeps,
  principal: Principal,
  projectId: string,
) {
  await authorize(deps.store, principal, projectId, 'view');
  return publicSettings(await load(deps, projectId));
}

export async function setNetworkPolicy(
  deps: NotificationManageDeps,
  principal: Principal,
  projectId: string,
  allowPrivateNetworks: boolean,
) {
  await authorize(deps.store, principal, projectId, 'manage_project');
  return publicSettings(await change(deps, projectId, (settings) => ({ ...settings, allowPrivateNetworks })));
}

export async function saveTarget(
  deps: NotificationManageDeps,
  principal: Principal,
  projectId: string,
  targetId: string | undefined,
  input: TargetInput,
): Promise<PublicTarget> {
  await authorize(deps.store, principal, projectId, 'manage_project');
  const center = deps.notifications;
  const current = await load(deps, projectId);
  const existing = targetId ? current.targets.find((t) => t.id === targetId) : undefined;
  if (targetId && !existing) throw notFound('Notification target', targetId);
  if (existing && existing.kind !== input.kind) {
    throw badRequest(`Target '${targetId}' is a ${existing.kind} target; its kind cannot change.`, [
      { pointer: '#/kind', detail: 'cannot change' },
    ]);
  }
  const id = existing?.id ?? center.deps.ids.next('ntt');
  const now = center.deps.clock.now().toISOString();
  const encrypt = (value: string, field: 'secret' | 'smtpPassword') =>
    center.deps.secrets.encrypt(value, targetSecretContext(projectId, id, field));
  const base = {
    id,
    name: input.name,
    kind: input.kind,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  let target: StoredTarget;
  if (input.kind === 'webhook') {
    await checkUrl(deps, current, input.url, '#/url');
    const secret = input.signingSecret;
    if (!secret && !existing) throw required('signingSecret', 'a webhook target needs a signing secret');
    target = {
      ...base,
      url: input.url,
      secretCiphertext: secret ? await encrypt(secret, 'secret') : existing!.secretCiphertext!,
    };
  } else if (input.kind === 'slack') {
    if (!input.url && !existing) throw required('url', 'a Slack target needs its incoming-webhook URL');
    if (input.url) await checkUrl(deps, current, input.url, '#/url');
    target = {
      ...base,
      urlHost: input.url ? new URL(input.url).host : existing!.urlHost!,
      secretCiphertext: input.url ? await encrypt(input.url, 'secret') : existing!.secretCiphertext!,
    };
  } else {
    if (input.smtp) await checkSmtpHost(deps, current, input.smtp.host);
    const { password, ...smtp } = input.smtp ?? { password: undefined };
    const keptPassword =
      input.smtp && existing?.smtp?.host === input.smtp.host ? existing.smtpPasswordCiphertext : undefined;
    const passwordCiphertext = password ? await encrypt(password, 'smtpPassword') : keptPassword;
    target = {
      ...base,
      to: input.to,
      from: input.from,
      ...(input.smtp ? { smtp: smtp as StoredTarget['smtp'] & object } : {}),
      ...(passwordCiphertext ? { smtpPasswordCiphertext: passwordCiphertext } : {}),
    };
  }
  await change(deps, projectId, (settings) => {
    const others = settings.targets.filter((t) => t.id !== id);
    if (!existing && others.length >= maxTargets) {
      throw new DoguError('state_conflict', `A project may have at most ${maxTargets} notification targets.`);
    }
    return {
      ...settings,
      targets: existing ? settings.targets.map((t) => (t.id === id ? target : t)) : [...others, target],
    };
  });
  return publicTarget(target);
}

export async function deleteTarget(
  deps: NotificationManageDeps,
  principal: Principal,
  projectId: string,
  targetId: string,
) {
  await authorize(deps.store, principal, projectId, 'manage_project');
  await change(deps, projectId, (settings) => {
    if (!settings.targets.some((t) => t.id === targetId)) throw notFound('Notification target', targetId);
    const users = settings.rules.filter((rule) => rule.targetIds.includes(targetId));
    if (users.length > 0) {
      throw new DoguError(
        'state_conflict',
        `Target '${targetId}' is used by ${users.length} rule(s) (${users.map((r) => r.id).join(', ')}); remove it from them first.`,
      );
    }
    return { ...settings, targets: settings.targets.filter((t) => t.id !== targetId) };
  });
}

export async function saveRule(
  deps: NotificationManageDeps,
  principal: Principal,
  projectId: string,
  ruleId: string | undefined,
  input: RuleInput,
): Promise<NotificationRule> {
  await authorize(deps.store, principal, projectId, 'manage_project');
  await checkSubject(deps, projectId, input.subject);
  const now = deps.notifications.deps.clock.now().toISOString();
  let saved: NotificationRule | undefined;
  await change(deps, projectId, (settings) => {
    const existing = ruleId ? settings.rules.find((r) => r.id === ruleId) : undefined;
    if (ruleId && !existing) throw notFound('Notification rule', ruleId);
    input.targetIds.forEach((targetId, index) => {
      if (!settings.targets.some((t) => t.id === targetId)) {
        throw badRequest(`Notification target '${targetId}' does not exist.`, [
          { pointer: `#/targetIds/${index}`, detail: 'no such target' },
        ]);
      }
    });
    if (!existing && settings.rules.length >= maxRules) {
      throw new DoguError('state_conflict', `A project may have at most ${maxRules} notification rules.`);
    }
    saved = {
      id: existing?.id ?? deps.notifications.deps.ids.next('ntr'),
      subject: input.subject,
      events: input.events,
      targetIds: [...new Set(input.targetIds)],
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    const rule = saved;
    return {
      ...settings,
      rules: existing ? settings.rules.map((r) => (r.id === rule.id ? rule : r)) : [...settings.rules, rule],
    };
  });
  return saved!;
}

export async function deleteRule(
  deps: NotificationManageDeps,
  principal: Principal,
  projectId: string,
  ruleId: string,
) {
  await authorize(deps.store, principal, projectId, 'manage_project');
  await change(deps, projectId, (settings) => {
    if (!settings.rules.some((r) => r.id === ruleId)) throw notFound('Notification rule', ruleId);
    return { ...settings, rules: settings.rules.filter((r) => r.id !== ruleId) };
  });
}

export async function sendTest(
  deps: NotificationManageDeps,
  principal: Principal,
  projectId: string,
  targetId: string,
) {
  await authorize(deps.store, principal, projectId, 'manage_project');
  const settings = await load(deps, projectId);
  const target = settings.targets.find((t) => t.id === targetId);
  if (!target) throw notFound('Notification target', targetId);
  return deps.notifications.sendTest(settings, target);
}

export async function listDeliveries(
  deps: NotificationManageDeps,
  principal: Principal,
  projectId: string,
  query: { limit: number; cursor?: string },
) {
  await authorize(deps.store, principal, projectId, 'view');
  return deps.notifications.deps.notificationStore.listDeliveries(projectId, query);
}

async function load(deps: NotificationManageDeps, projectId: string): Promise<NotificationSettings> {
  return (
    (await deps.notifications.deps.notificationStore.getSettings(projectId)) ?? {
      projectId,
      allowPrivateNetworks: false,
      targets: [],
      rules: [],
      version: 0,
      updatedAt: deps.notifications.deps.clock.now().toISOString(),
    }
  );
}

/** Read, change, write if nobody wrote meanwhile (a few tries, then 409). */
async function change(
  deps: NotificationManageDeps,
  projectId: string,
  apply: (settings: NotificationSettings) => NotificationSettings,
): Promise<NotificationSettings> {
  const store = deps.notifications.deps.notificationStore;
  for (let tries = 0; tries < 3; tries++) {
    const current = await load(deps, projectId);
    const next: NotificationSettings = {
      ...apply(current),
      version: current.version + 1,
      updatedAt: deps.notifications.deps.clock.now().toISOString(),
    };
    if (await store.saveSettings(next, current.version)) {
      deps.notifications.forget(projectId);
      return next;
    }
  }
  throw new DoguError('state_conflict', 'The notification settings changed meanwhile; try again.');
}

async function checkUrl(
  deps: NotificationManageDeps,
  settings: NotificationSettings,
  url: string,
  pointer: string,
) {
  try {
    await deps.notifications.deps.channels.checkUrl(url, settings.allowPrivateNetworks);
  } catch (error) {
    if (error instanceof DoguError) throw badRequest(error.message, [{ pointer, detail: error.message }]);
    throw error;
  }
}

async function checkSmtpHost(deps: NotificationManageDeps, settings: NotificationSettings, host: string) {
  try {
    await deps.notifications.deps.channels.checkSmtpHost(host, settings.allowPrivateNetworks);
  } catch (error) {
    const pointer = '#/smtp/host';
    if (error instanceof DoguError) throw badRequest(error.message, [{ pointer, detail: error.message }]);
    throw error;
  }
}

async function checkSubject(deps: NotificationManageDeps, projectId: string, subject: RuleInput['subject']) {
  if (subject.id === '*') return;
  const exists =
    subject.kind === 'cron_job'
      ? !deps.schedules || (await deps.schedules.getCronJob(projectId, subject.id)) !== undefined
      : (await deps.store.getAction(projectId, subject.id)) !== undefined;
  if (!exists) {
    const what = subject.kind === 'cron_job' ? 'Cron job' : 'Action';
    throw badRequest(`${what} '${subject.id}' does not exist in project '${projectId}'.`, [
      { pointer: '#/subject/id', detail: 'does not exist' },
    ]);
  }
}

const required = (field: string, detail: string) =>
  badRequest(`'${field}' is required: ${detail}.`, [{ pointer: `#/${field}`, detail }]);
