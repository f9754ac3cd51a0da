/**
 * The `notifications` key of the config file against one real embedded runtime (project `demo`),
 * planned and applied in process (no CLI subprocess: the commands around these functions are tested
 * in config-apply.test.ts): targets created by name with their secrets from the environment, rules
 * that name targets and a cron job the same apply creates, no-op second applies, changes, refusals
 * before any write, and the export round trip with the file's variable names kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan, cannotApplyReason } from '../../cli/config/apply.ts';
import { exportProjectConfig } from '../../cli/config/export.ts';
import { referenceNamesOf } from '../../cli/config/export-names.ts';
import { ConfigFileError, parseConfigText } from '../../cli/config/load.ts';
import { type ManagementApi, managementApi } from '../../cli/config/management-api.ts';
import { buildPlan, environmentsNamedIn } from '../../cli/config/plan.ts';
import { readProjectState } from '../../cli/config/project-state.ts';
import { renderPlan } from '../../cli/config/render-plan.ts';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let dataDir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
let management: ManagementApi;

/** The values apply reads from the environment; none may appear in a plan or an export. */
const secrets = {
  OPS_HOOK_SECRET: 'hook-secret-5c0d9e7a1b2f4a6c8e0d',
  TEAM_SLACK_URL: 'http://127.0.0.1:9/services/T0/B0/slack-credential-7f3e',
  ONCALL_SMTP_PASSWORD: 'smtp-pw-1a9c44',
};

const file = (options: { hookUrl?: string; actionEvents?: string; extraRules?: string } = {}) => `version: 1
project: demo
cronJobs:
  - name: Nightly orders
    environment: development
    schedule: { kind: cron, expression: "0 3 * * ? *" }
    action: list-orders
    arguments: { status: shipped }
notifications:
  allowPrivateNetworks: true
  targets:
    - name: ops-hook
      kind: webhook
      url: ${options.hookUrl ?? 'http://127.0.0.1:9/hook'}
      signingSecretFromEnv: OPS_HOOK_SECRET
    - name: team-slack
      kind: slack
      urlFromEnv: TEAM_SLACK_URL
    - name: oncall-mail
      kind: email
      to: [oncall@example.com]
      from: dogu@example.com
      smtp: { host: 127.0.0.1, port: 2525, username: dogu, passwordFromEnv: ONCALL_SMTP_PASSWORD }
  rules:
    - subject: { kind: action, id: list-orders }
      events: ${options.actionEvents ?? '[failure, recovery]'}
      targets: [team-slack, ops-hook]
    - subject: { kind: cron_job, environment: development, name: Nightly orders }
      events: [failure]
      targets: [oncall-mail]
    - subject: { kind: batch, id: "*" }
      events: [failure]
      targets: [ops-hook]
${options.extraRules ?? ''}`;

/** Reads the project and plans `text` as `dogu apply` does; `apply` then sends the plan. */
async function plan(text: string, env: Record<string, string> = {}) {
  const { config } = parseConfigText(text, 'dogu.yaml');
  const state = await readProjectState(management, environmentsNamedIn(config));
  const built = buildPlan(config, state, env, 'demo');
  return { plan: built, markdown: renderPlan(built, { dryRun: true }) };
}
/** What the plan lists as in the project and not in the file, of notifications only. */
const notInFile = ({ notInFile }: { notInFile: { kind: string; id: string }[] }) =>
  notInFile.filter((item) => item.kind.startsWith('notification')).map((item) => `${item.kind} ${item.id}`);
const changeLines = (markdown: string) => markdown.split('\n').filter((l) => /^- `[+~] /.test(l));

interface Settings {
  allowPrivateNetworks: boolean;
  targets: { id: string; name: string; kind: string; url?: string; hasSecret: boolean; smtp?: object }[];
  rules: { id: string; subject: { kind: string; id: string }; events: string[]; targetIds: string[] }[];
}
const settings = async (): Promise<Settings> => (await api.get('/api/v1/projects/demo/notifications')).body;

beforeAll(async () => {
  dataDir = await tempDir('config-notifications');
  runtime = await startTestRuntime(dataDir.path);
  const token = await loginToken(runtime);
  api = apiClient(runtime, token);
  management = managementApi({ baseUrl: runtime.url, token, projectId: 'demo' });
});
afterAll(async () => {
  await runtime?.close();
  await dataDir?.remove();
});

describe('notifications in the config file', () => {
  it('refuses to apply while a new target has no secret, naming every variable', async () => {
    const { plan: unset, markdown } = await plan(file());
    expect(cannotApplyReason(unset)).toBe(
      '$OPS_HOOK_SECRET, $TEAM_SLACK_URL, $ONCALL_SMTP_PASSWORD are not set, and there is no stored value to keep (see above)',
    );
    expect(markdown).toContain('- `$TEAM_SLACK_URL` is not set, and notification target `team-slack`');
    await expect(applyPlan(management, unset)).rejects.toThrow('Nothing was applied');
    expect((await settings()).targets).toEqual([]);
  });

  it('creates targets, then rules naming them and the cron job by the ids the creations answered', async () => {
    const { plan: planned, markdown } = await plan(file(), secrets);
    expect(changeLines(markdown)).toEqual([
      '- `+ create` `development.Nightly orders`',
      '- `~ update` `allowPrivateNetworks`: `false → true`',
      '- `+ create` `ops-hook`',
      '- `+ create` `team-slack`',
      '- `+ create` `oncall-mail`',
      '- `+ create` `action list-orders → ops-hook, team-slack`',
      '- `+ create` `cron_job development.Nightly orders → oncall-mail`',
      '- `+ create` `batch * → ops-hook`',
    ]);
    expect(markdown).toContain('`signingSecret` set from `$OPS_HOOK_SECRET`');
    for (const value of Object.values(secrets)) expect(markdown).not.toContain(value);

    const applied = await applyPlan(management, planned);
    expect(applied.map((a) => `${a.step.resource.kind} ${a.step.resource.id} ${a.created}`)).toEqual([
      'cronJob development.Nightly orders true',
      'notificationPolicy allowPrivateNetworks false',
      'notificationTarget ops-hook true',
      'notificationTarget team-slack true',
      'notificationTarget oncall-mail true',
      'notificationRule action list-orders → ops-hook, team-slack true',
      'notificationRule cron_job development.Nightly orders → oncall-mail true',
      'notificationRule batch * → ops-hook true',
    ]);
    const now = await settings();
    const id = (name: string) => now.targets.find((t) => t.name === name)!.id;
    expect(now.allowPrivateNetworks).toBe(true);
    expect(now.targets.map((t) => [t.name, t.kind, t.hasSecret])).toEqual([
      ['ops-hook', 'webhook', true],
      ['team-slack', 'slack', true],
      ['oncall-mail', 'email', false],
    ]);
    expect(now.targets[2]!.smtp).toEqual({
      host: '127.0.0.1',
      port: 2525,
      secure: false,
      username: 'dogu',
      hasPassword: true,
    });
    const job = (await api.get('/api/v1/projects/demo/environments/development/cron-jobs')).body.data.find(
      (j: { name: string }) => j.name === 'Nightly orders',
    );
    expect(now.rules.map(({ subject, events, targetIds }) => ({ subject, events, targetIds }))).toEqual([
      {
        subject: { kind: 'action', id: 'list-orders' },
        events: ['failure', 'recovery'],
        targetIds: [id('team-slack'), id('ops-hook')],
      },
      { subject: { kind: 'cron_job', id: job.id }, events: ['failure'], targetIds: [id('oncall-mail')] },
      { subject: { kind: 'batch', id: '*' }, events: ['failure'], targetIds: [id('ops-hook')] },
    ]);
    expect(JSON.stringify(now)).not.toContain(secrets.OPS_HOOK_SECRET);
  });

  it('applied again without the variables, nothing changes: the stored secrets are kept', async () => {
    const { plan: again, markdown } = await plan(file());
    expect(changeLines(markdown)).toEqual([]);
    expect(again.steps).toEqual([]);
    expect(markdown).toContain('- `signingSecret` kept: `$OPS_HOOK_SECRET` is not set');
    expect(markdown).toContain('- `smtp.password` kept: `$ONCALL_SMTP_PASSWORD` is not set');
    expect(notInFile(again)).toEqual([]);
  });

  it('a changed URL and events are updates; other targets make another rule, and nothing is deleted', async () => {
    const changed = file({
      hookUrl: 'http://127.0.0.1:9/hook/v2',
      actionEvents: '[failure, timeout, recovery]',
      extraRules: `    - subject: { kind: action, id: list-orders }
      events: [failure]
      targets: [oncall-mail]
`,
    });
    const { plan: planned, markdown } = await plan(changed);
    expect(changeLines(markdown)).toEqual([
      '- `~ update` `ops-hook`',
      '- `~ update` `action list-orders → ops-hook, team-slack`',
      '- `+ create` `action list-orders → oncall-mail`',
    ]);
    expect(markdown).toContain('  - `url: "http://127.0.0.1:9/hook" → "http://127.0.0.1:9/hook/v2"`');
    expect(markdown).toContain('  - `events: "failure, recovery" → "failure, timeout, recovery"`');
    await applyPlan(management, planned);
    const now = await settings();
    expect(now.targets.find((t) => t.name === 'ops-hook')).toMatchObject({
      url: 'http://127.0.0.1:9/hook/v2',
      hasSecret: true,
    });
    expect(now.rules.map((r) => r.events)).toEqual([
      ['failure', 'timeout', 'recovery'],
      ['failure'],
      ['failure'],
      ['failure'],
    ]);

    // The first file again: the extra rule is not deleted, only listed.
    const back = await plan(file({ hookUrl: 'http://127.0.0.1:9/hook/v2' }));
    expect(notInFile(back.plan)).toEqual(['notificationRule action list-orders → oncall-mail']);
    expect(back.markdown).toContain('- notification rule `action list-orders → oncall-mail`');
  });

  it('exports targets by name and rules by names; the round trip keeps the names and changes nothing', async () => {
    const state = await readProjectState(management, []);
    const source = file({
      hookUrl: 'http://127.0.0.1:9/hook/v2',
      actionEvents: '[failure, timeout, recovery]',
    });
    const { text, keptNames } = exportProjectConfig(state, {
      projectId: 'demo',
      source: runtime.url,
      now: new Date(),
      names: referenceNamesOf(source),
    });
    expect(keptNames).toBeGreaterThanOrEqual(3);
    const section = text.slice(text.indexOf('notifications:'));
    expect(section).toContain(`notifications:
  allowPrivateNetworks: true
  targets:
    - name: oncall-mail
      kind: email
      to:
        - oncall@example.com
      from: dogu@example.com
      smtp:
        host: 127.0.0.1
        port: 2525
        username: dogu
        passwordFromEnv: ONCALL_SMTP_PASSWORD
    - name: ops-hook
      kind: webhook
      url: http://127.0.0.1:9/hook/v2
      signingSecretFromEnv: OPS_HOOK_SECRET
    - name: team-slack
      kind: slack
      urlFromEnv: TEAM_SLACK_URL
  rules:`);
    expect(section).toContain(`    - subject:
        kind: cron_job
        environment: development
        name: Nightly orders
      events:
        - failure
      targets:
        - oncall-mail`);
    expect(text).not.toMatch(/\b(ntt|ntr|cron)_[0-9A-Za-z]{10,}/);
    for (const value of Object.values(secrets)) expect(text).not.toContain(value);
    // Without a file to take names from, they are derived from the target's name.
    const derived = exportProjectConfig(state, { projectId: 'demo', source: runtime.url, now: new Date() });
    expect(derived.text).toContain('signingSecretFromEnv: DOGU_WEBHOOK_SECRET_OPS_HOOK');
    expect(derived.text).toContain('urlFromEnv: DOGU_SLACK_URL_TEAM_SLACK');
    expect(derived.text).toContain('passwordFromEnv: DOGU_SMTP_PASSWORD_ONCALL_MAIL');

    const { plan: roundTrip, markdown } = await plan(text);
    expect(changeLines(markdown)).toEqual([]);
    expect(roundTrip.notInFile).toEqual([]);
    expect(roundTrip.problems).toEqual([]);
  });

  it('names unknown targets, actions and cron jobs, and a changed kind, before any write', async () => {
    const text = `version: 1
project: demo
notifications:
  targets:
    - { name: ops-hook, kind: slack, urlFromEnv: TEAM_SLACK_URL }
  rules:
    - subject: { kind: action, id: no-such-action }
      events: [failure]
      targets: [nobody]
    - subject: { kind: cron_job, environment: development, name: No such job }
      events: [failure]
      targets: [ops-hook]
`;
    const { plan: refused } = await plan(text);
    expect(refused.problems.map((p) => `${p.path.join('.')}: ${p.message}`)).toEqual([
      "notifications.targets.0.kind: target 'ops-hook' is a webhook target in project 'demo'; a target's kind cannot change",
      "notifications.rules.0.targets.0: no notification target 'nobody' in the file or in project 'demo'",
      "notifications.rules.0.subject.id: no action 'no-such-action' in the file or in project 'demo'",
      "notifications.rules.1.subject.name: no cron job 'No such job' in environment 'development' of the file or of project 'demo'",
    ]);
  });

  it('refuses a secret written inline and a cron job subject without its name, at their places', () => {
    const text = `version: 1
project: demo
notifications:
  targets:
    - { name: hook, kind: webhook, url: "https://example.com/h", signingSecret: inline-secret-value-123456 }
  rules:
    - subject: { kind: cron_job, environment: development }
      events: [failure]
      targets: [hook]
      target: [typo]
`;
    const error = (() => {
      try {
        parseConfigText(text, 'dogu.yaml');
      } catch (caught) {
        return caught as ConfigFileError;
      }
    })();
    expect(error).toBeInstanceOf(ConfigFileError);
    expect(error!.message.split('\n').slice(1)).toEqual([
      '  dogu.yaml:5:7: notifications.targets[0].signingSecretFromEnv: is required',
      '  dogu.yaml:5:81: notifications.targets[0].signingSecret: a signingSecret is never written in the file: use signingSecretFromEnv: ENV_VAR_NAME',
      "  dogu.yaml:7:16: notifications.rules[0].subject.name: is required: a cron_job subject names the job by environment and name (or id: '*')",
      "  dogu.yaml:10:7: notifications.rules[0].target: unknown field 'target'",
    ]);
    expect(error!.message).not.toContain('inline-secret-value');
  });
});
