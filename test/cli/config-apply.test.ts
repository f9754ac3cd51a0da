/**
 * `dogu apply` and `dogu export` against one real embedded runtime (project `demo`): the documented
 * example applied to a fresh project, dry runs, a one-field change, secrets from the environment,
 * the export round trip, a refused save, and a concurrent edit between plan and apply.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { ApplyError, applyPlan } from '../../cli/config/apply.ts';
import { parseConfigText } from '../../cli/config/load.ts';
import { managementApi } from '../../cli/config/management-api.ts';
import { buildPlan, environmentsNamedIn } from '../../cli/config/plan.ts';
import { readProjectState } from '../../cli/config/project-state.ts';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { runCli } from '../support/cli-bundle.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { repoRoot } from '../support/process.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let database: TestDatabase;
let dataDir: Awaited<ReturnType<typeof tempDir>>;
let home: Awaited<ReturnType<typeof tempDir>>;
let files: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;

const exampleFile = join(repoRoot, 'docs/examples/dogu.yaml');
/** The environment variables the example's secrets and passwords come from. */
const exampleSecrets = {
  CRM_API_KEY_DEVELOPMENT: 'crm-key-dev-5f1c',
  CRM_API_KEY_PRODUCTION: 'crm-key-prod-77aa',
  CRM_CLIENT_SECRET_DEVELOPMENT: 'crm-client-dev-9b2e',
  CRM_CLIENT_SECRET_PRODUCTION: 'crm-client-prod-3d4f',
  SHOP_DB_PASSWORD_DEVELOPMENT: 'shop-pw-dev-0c8d',
  SHOP_DB_PASSWORD_PRODUCTION: 'shop-pw-prod-e61a',
};

const dogu = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { HOME: home.path, DOGU_URL: runtime.url, ...env });
const writeConfig = async (name: string, text: string) => {
  const path = join(files.path, name);
  await writeFile(path, text);
  return path;
};
/** The plan's lines for resources, without the unchanged ones. */
const changeLines = (markdown: string) => markdown.split('\n').filter((l) => /^- `[+~] /.test(l));
/** A user's id in this installation, by e-mail address (invited users get theirs when apply adds them). */
const userId = async (email: string) => (await runtime.services.store.getUserByEmail(email))?.id;

beforeAll(async () => {
  [dataDir, home, files] = await Promise.all([
    tempDir('config-data'),
    tempDir('config-home'),
    tempDir('config-files'),
  ]);
  database = await createTestDatabase();
  runtime = await startTestRuntime(dataDir.path, { demoDatabaseUrl: database.url });
  api = apiClient(runtime, await loginToken(runtime));
  // A fresh install: the example's members (ana, ops) have never signed in, so apply invites them.
  // carl has signed in before (a later test adds him).
  await runtime.services.store.createUser({
    id: 'usr_carl',
    email: 'carl@example.com',
    name: 'carl',
    createdAt: new Date().toISOString(),
  });
  const login = await dogu(['login']);
  expect(login.code).toBe(0);
});
afterAll(async () => {
  await runtime?.close();
  await Promise.all([dataDir?.remove(), home?.remove(), files?.remove(), database?.drop()]);
});

describe('the example file on a fresh project', () => {
  it('a dry run shows every resource as created, warns about unset secrets, exits 0 and changes nothing', async () => {
    const result = await dogu(['apply', '-f', exampleFile, '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('## Dogu plan for project `demo`');
    expect(result.stdout).toContain('**26 to create, 0 to update, 0 unchanged.**');
    expect(result.stdout).toContain('- `+ create` `crm-api`');
    expect(result.stdout).toContain('- `+ create` `development.support_email`: `"support-dev@example.com"`');
    expect(result.stdout).toContain('### Service accounts\n\n- `+ create` `ci-deploy`\n');
    expect(result.stdout).toContain('### Trust policies\n\n- `+ create` `ci-deploy.github-main`\n');
    expect(result.stdout).toContain(
      '- `$CRM_API_KEY_PRODUCTION` is not set, and secret `production.crm_api_key` has no value to keep',
    );
    // The demo's own resources are listed, not touched.
    expect(result.stdout).toContain('### Not in the file (left as they are)');
    expect(result.stdout).toContain('- action `list-orders`');
    expect(result.stdout).toContain('_Dry run: nothing was changed._');
    // What would stop apply is said on stderr too, with the same words apply uses.
    expect(result.stderr).toContain(
      'dogu: apply would stop here: $CRM_API_KEY_DEVELOPMENT, $CRM_CLIENT_SECRET_DEVELOPMENT, $CRM_API_KEY_PRODUCTION, $CRM_CLIENT_SECRET_PRODUCTION, $SHOP_DB_PASSWORD_DEVELOPMENT, $SHOP_DB_PASSWORD_PRODUCTION are not set, and there is no stored value to keep',
    );
    expect((await api.get('/api/v1/projects/demo/data-sources/crm-api')).status).toBe(404);
    expect(await userId('ana@example.com')).toBeUndefined();
  });

  it('apply refuses before any request while a new secret has no value', async () => {
    const result = await dogu(['apply', '-f', exampleFile]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('nothing was applied: $CRM_API_KEY_DEVELOPMENT,');
    expect(
      (await api.get('/api/v1/projects/demo/environments/development/variables/support_email')).status,
    ).toBe(404);
  });

  it('apply creates everything in one go, the authentication action before the data source names it', async () => {
    const result = await dogu(['apply', '-f', exampleFile], exampleSecrets);
    expect(result.stderr).toContain("Applied 26 changes to project 'demo'.");
    expect(result.code).toBe(0);
    const progress = result.stderr.split('\n');
    const at = (line: string) => progress.findIndex((l) => l.startsWith(line));
    expect(
      at('✓ created data source crm-api (first without its authentication action crm-login'),
    ).toBeGreaterThan(-1);
    expect(at('✓ created action crm-login (version 1)')).toBeGreaterThan(at('✓ created data source crm-api'));
    expect(at('✓ updated data source crm-api (with its authentication action crm-login)')).toBeGreaterThan(
      at('✓ created action crm-login'),
    );
    expect(at('✓ created action crm-customer')).toBeGreaterThan(at('✓ updated data source crm-api'));
    // Parameters name master data lists: those come before the actions.
    expect(at('✓ created master data list order_statuses')).toBeGreaterThan(-1);
    expect(at('✓ created master data list order_statuses')).toBeLessThan(
      at('✓ created action orders-by-status'),
    );

    const crm = await api.get('/api/v1/projects/demo/data-sources/crm-api');
    expect(crm.body.authAction).toEqual({
      actionId: 'crm-login',
      tokenPath: 'access_token',
      cacheSeconds: 600,
    });
    const shop = await api.get('/api/v1/projects/demo/data-sources/shop-db');
    expect(shop.body.environments.production).toMatchObject({
      database: 'shop',
      ssl: true,
      hasPassword: true,
    });
    const secrets = await api.get('/api/v1/projects/demo/environments/production/secrets');
    expect(secrets.body.data.map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining(['crm_api_key', 'crm_client_secret']),
    );
    for (const value of Object.values(exampleSecrets)) {
      expect(result.stdout + result.stderr).not.toContain(value);
    }

    // Members first; the user group before the actions whose permission names it; action groups
    // and publications after the actions.
    expect(at('✓ created member ana@example.com')).toBe(0);
    expect(at('✓ created user group order-managers')).toBeLessThan(at('✓ created action crm-add-note'));
    expect(at('✓ created action group orders')).toBeGreaterThan(at('✓ created action crm-add-note'));
    expect(at('✓ created publication production.orders-by-status')).toBeGreaterThan(
      at('✓ created action orders-by-status'),
    );
    // The service account after the user groups, its trust policy right after it, both before actions.
    expect(at('✓ created service account ci-deploy')).toBeGreaterThan(
      at('✓ created user group order-managers'),
    );
    expect(at('✓ created trust policy ci-deploy.github-main')).toBe(
      at('✓ created service account ci-deploy') + 1,
    );
    expect(at('✓ created trust policy ci-deploy.github-main')).toBeLessThan(at('✓ created data source'));
    const accounts = (await api.get('/api/v1/projects/demo/service-accounts')).body.data;
    expect(accounts).toMatchObject([
      {
        name: 'ci-deploy',
        email: 'ci-deploy@demo.sa.dogu',
        role: 'developer',
        description: 'Applies this file from CI',
      },
    ]);
    const policy = await api.get(
      `/api/v1/projects/demo/service-accounts/${accounts[0].id}/trust-policies/github-main`,
    );
    expect(policy.body).toMatchObject({
      issuer: 'https://token.actions.githubusercontent.com',
      audience: 'dogu',
      boundClaims: [
        { key: 'repository', pattern: 'example/shop-config' },
        { key: 'ref', pattern: 'refs/heads/main' },
      ],
    });
    const members = (await api.get('/api/v1/projects/demo/members')).body.data;
    const roleOf = (email: string) => members.find((m: { email?: string }) => m.email === email)?.role;
    expect([roleOf('ana@example.com'), roleOf('ops@example.com')]).toEqual(['developer', 'operations_lead']);
    const group = await api.get('/api/v1/projects/demo/user-groups/order-managers');
    expect(group.body.members).toEqual([await userId('ana@example.com'), await userId('ops@example.com')]);
    expect(group.body.members.every((id: string) => /^usr_/.test(id))).toBe(true);
    const actionGroup = await api.get('/api/v1/projects/demo/action-groups/orders');
    expect(actionGroup.body.actionIds).toEqual(['orders-by-status', 'order-details', 'stock-levels']);
    const versions = await api.get('/api/v1/projects/demo/actions/orders-by-status/versions');
    expect(versions.body.publications).toMatchObject([{ environmentId: 'production', version: 1 }]);
    // An action's permission and review are part of its definition: they flow through apply.
    const note = await api.get('/api/v1/projects/demo/actions/crm-add-note');
    expect(note.body.permission).toEqual({
      mode: 'restricted',
      groups: ['order-managers'],
      roles: ['admin'],
    });
    expect(note.body.review).toEqual({ required: true, expiresInMinutes: 120 });
    // The cron job last but for role changes: it names the action's published version and the account.
    expect(at('✓ created cron job production.Paid orders every weekday')).toBeGreaterThan(
      at('✓ created publication production.orders-by-status'),
    );
    const jobs = (await api.get('/api/v1/projects/demo/environments/production/cron-jobs')).body.data;
    expect(jobs).toMatchObject([
      {
        name: 'Paid orders every weekday',
        actionId: 'orders-by-status',
        arguments: { status: 'paid', limit: 100 },
        executor: { kind: 'service_account', id: accounts[0].id, email: 'ci-deploy@demo.sa.dogu' },
        expressions: ['0 9 ? * MON-FRI *'],
      },
    ]);
  });

  it('a dry run afterwards shows everything unchanged, stored secrets and passwords kept', async () => {
    const result = await dogu(['apply', '-f', exampleFile, '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('**0 to create, 0 to update, 26 unchanged.**');
    expect(changeLines(result.stdout)).toEqual([]);
    expect(result.stdout).toContain(
      '- `= unchanged` `production.crm_api_key` kept: `$CRM_API_KEY_PRODUCTION` is not set',
    );
  });

  it('one changed field: the dry run shows exactly it, apply makes version 2, applying again sends nothing', async () => {
    const document = parseDocument(await readFile(exampleFile, 'utf8'));
    expect(document.getIn(['actions', 0, 'id'])).toBe('orders-by-status');
    expect(document.getIn(['actions', 0, 'parameters', 1, 'default'])).toBe(20);
    document.setIn(['actions', 0, 'parameters', 1, 'default'], 50);
    const changed = await writeConfig('changed.yaml', document.toString());

    const dryRun = await dogu(['apply', '-f', changed, '--dry-run']);
    expect(dryRun.code).toBe(0);
    expect(changeLines(dryRun.stdout)).toEqual(['- `~ update` `orders-by-status` (version 1 → 2)']);
    const block = dryRun.stdout.slice(dryRun.stdout.indexOf('- `~ update` `orders-by-status`')).split('\n');
    expect(block.slice(1, 3)).toEqual([
      '  - `parameters[1].default: 20 → 50`',
      '- `= unchanged` `order-details`',
    ]);

    const applied = await dogu(['apply', '-f', changed]);
    expect(applied.code).toBe(0);
    expect(applied.stderr).toContain('✓ updated action orders-by-status (version 2)');
    expect(applied.stderr).toContain("Applied 1 change to project 'demo'.");
    const action = await api.get('/api/v1/projects/demo/actions/orders-by-status');
    expect(action.body.version).toBe(2);
    expect(action.body.parameters[1].default).toBe(50);

    const again = await dogu(['apply', '-f', changed]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("Nothing to apply: project 'demo' already matches");
    expect((await api.get('/api/v1/projects/demo/actions/orders-by-status')).body.version).toBe(2);
  });
});

describe('secrets from the environment', () => {
  const file = (name = 'config_test_token') => `version: 1
project: demo
secrets:
  development:
    ${name}: { fromEnv: CONFIG_TEST_TOKEN }
actions:
  - id: show-config-token
    name: Show the config token
    kind: sql
    dataSourceId: demo-postgres
    statements:
      - title: Token
        sql: SELECT {{ secrets.${name} }} AS token
`;

  it('sets the secret from its variable; the value appears in no output', async () => {
    const path = await writeConfig('secret.yaml', file());
    const token = 'tok-3e9f0a1b-never-printed';
    const result = await dogu(['apply', '-f', path], { CONFIG_TEST_TOKEN: token });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '- `+ create` `development.config_test_token` set from `$CONFIG_TEST_TOKEN`',
    );
    expect(result.stdout + result.stderr).not.toContain(token);
    // The action reads the secret: proof that the value arrived.
    const execution = await api.execute('show-config-token', {});
    expect(execution.body.results[0].rows).toEqual([{ token }]);

    const dryRun = await dogu(['apply', '-f', path, '--dry-run'], { CONFIG_TEST_TOKEN: 'rotated-4c1d' });
    expect(dryRun.stdout).toContain(
      '- `~ update` `development.config_test_token` set from `$CONFIG_TEST_TOKEN` (write-only: sent on every apply)',
    );
    expect(dryRun.stdout + dryRun.stderr).not.toContain('rotated-4c1d');
  });

  it('a secret value written inline is refused before any request, and never echoed', async () => {
    const path = await writeConfig(
      'inline.yaml',
      file().replace('{ fromEnv: CONFIG_TEST_TOKEN }', 'sk-inline-8d2c'),
    );
    const result = await dogu(['apply', '-f', path, '--dry-run']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${path}:5:24: secrets.development.config_test_token: a secret is referenced, never written in the file`,
    );
    expect(result.stderr).not.toContain('sk-inline-8d2c');
    expect(result.stdout).toBe('');
  });
});

describe('export', () => {
  it('writes the project so that applying it changes nothing', async () => {
    const output = join(files.path, 'exported.yaml');
    const exported = await dogu(['export', '-o', output]);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain(`Wrote ${output}:`);
    const text = await readFile(output, 'utf8');
    expect(text).toMatch(/^# Dogu project 'demo', exported from http:\/\/127\.0\.0\.1:\d+ at /);
    // Stored passwords and secrets as references; no server-only fields; no values.
    expect(text).toContain('passwordFromEnv: DOGU_PASSWORD_SHOP_DB_PRODUCTION');
    expect(text).toMatch(/crm_api_key:\n\s+fromEnv: DOGU_SECRET_PRODUCTION_CRM_API_KEY/);
    expect(text).toContain('masterData:\n  - id: order_statuses\n    name: Order statuses\n');
    // Members and group members by e-mail address, not by id; the pins of now.
    expect(text).toContain('  - email: ana@example.com\n    role: developer\n');
    expect(text).toContain('  - email: admin@dogu.local\n    role: admin\n');
    expect(text).toMatch(
      / {2}- id: order-managers\n {4}name: Order managers\n {4}members:\n {6}- ana@example\.com\n/,
    );
    expect(text).not.toContain('usr_');
    // Service accounts by name, with their policies; no ids.
    expect(text).toContain(
      'serviceAccounts:\n  - name: ci-deploy\n    description: Applies this file from CI\n    role: developer\n',
    );
    expect(text).toContain(
      '      - id: github-main\n        issuer: https://token.actions.githubusercontent.com\n',
    );
    expect(text).not.toContain('sa_');
    // The demo publishes what it seeds to its protected production; the file's pin is among them.
    expect(text).toMatch(/publications:\n {2}production:\n( {4}.+\n)* {4}orders-by-status: 1\n/);
    expect(text).toMatch(/permission:\n\s+mode: restricted\n/);
    for (const field of ['projectId', 'version: 2', 'createdAt', 'updatedAt', 'hasPassword']) {
      expect(text).not.toContain(field);
    }
    for (const value of Object.values(exampleSecrets)) expect(text).not.toContain(value);
    const { config } = parseConfigText(text, output);
    const ids = (items: { id: string }[]) => items.map((i) => i.id);
    expect(ids(config.actions)).toEqual([...ids(config.actions)].sort());
    expect(ids(config.dataSources)).toEqual([
      'crm-api',
      'demo-api',
      'demo-grpc',
      'demo-postgres',
      'demo-scripts',
      'shop-db',
      'warehouse-db',
    ]);

    const dryRun = await dogu(['apply', '-f', output, '--dry-run']);
    expect(dryRun.code).toBe(0);
    expect(changeLines(dryRun.stdout)).toEqual([]);
    expect(dryRun.stdout).not.toContain('### Not in the file');
    expect(dryRun.stdout).toMatch(/\*\*0 to create, 0 to update, \d+ unchanged\.\*\* Apply never deletes\./);
  });

  it("keeps the user's variable names: exported onto the applied file, or with --names-from", async () => {
    // The example was applied with its own names; the service stored only the values.
    const output = join(files.path, 'round-trip.yaml');
    await writeFile(output, await readFile(exampleFile, 'utf8'));
    const onto = await dogu(['export', '-o', output]);
    expect(onto.code).toBe(0);
    expect(onto.stderr).toContain(`Kept 6 environment variable names of ${output}.`);
    const text = await readFile(output, 'utf8');
    expect(text).toContain('passwordFromEnv: SHOP_DB_PASSWORD_PRODUCTION');
    expect(text).toContain('passwordFromEnv: SHOP_DB_PASSWORD_DEVELOPMENT');
    expect(text).toMatch(/crm_api_key:\n\s+fromEnv: CRM_API_KEY_PRODUCTION\n/);
    expect(text).toMatch(/crm_client_secret:\n\s+fromEnv: CRM_CLIENT_SECRET_DEVELOPMENT\n/);
    // What the file did not name (a secret of the demo seed) still gets its derived name.
    expect(text).toContain('DOGU_SECRET_');
    expect(text).not.toContain('DOGU_PASSWORD_SHOP_DB');
    // Applied with the same variables the first apply had, the round trip sets the values again and
    // changes nothing else.
    const dryRun = await dogu(['apply', '-f', output, '--dry-run'], exampleSecrets);
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout).toContain(
      '- `~ update` `production.crm_api_key` set from `$CRM_API_KEY_PRODUCTION` (write-only: sent on every apply)',
    );
    expect(dryRun.stdout).not.toContain('DOGU_PASSWORD_SHOP_DB');

    const named = await dogu(['export', '--names-from', exampleFile]);
    expect(named.code).toBe(0);
    expect(named.stdout).toContain('passwordFromEnv: SHOP_DB_PASSWORD_PRODUCTION');
    expect(named.stderr).toContain(`Kept 6 environment variable names of ${exampleFile}.`);
    const missing = await dogu(['export', '--names-from', join(files.path, 'no-such.yaml')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--names-from');
    expect(missing.stdout).toBe('');
  });

  it('writes to stdout without -o', async () => {
    const result = await dogu(['export', '--project', 'demo']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('project: demo\n');
    expect(result.stdout).toContain('  - id: list-orders\n');
  });
});

describe('failures', () => {
  it('a save the service refuses names the resource and the place in the file, and what was applied', async () => {
    const path = await writeConfig(
      'refused.yaml',
      `version: 1
project: demo
variables:
  development:
    refused_test: "1"
actions:
  - id: refused-action
    name: Refused
    kind: sql
    dataSourceId: demo-postgres
    statements:
      - title: Missing variable
        sql: SELECT {{ vars.no_such_variable }}
`,
    );
    const result = await dogu(['apply', '-f', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `dogu: Could not create action refused-action (actions[0], ${path}:7:5): 422`,
    );
    expect(result.stderr).toContain(
      `  ${path}:13:14: actions[0].statements[0].sql: {{ vars.no_such_variable }}: no variable 'no_such_variable'`,
    );
    expect(result.stderr).toContain('Already applied: variable development.refused_test (created).');
    expect(result.stderr).toContain('Not applied: action refused-action.');
  });

  it('an environment the project does not have is reported at its place, before any write', async () => {
    const path = await writeConfig(
      'staging.yaml',
      'version: 1\nproject: demo\nvariables:\n  development:\n    staging_test: "1"\n  staging:\n    x: "1"\n',
    );
    const result = await dogu(['apply', '-f', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `dogu: ${path}:6:3: environment 'staging' does not exist in project 'demo'`,
    );
    expect(
      (await api.get('/api/v1/projects/demo/environments/development/variables/staging_test')).status,
    ).toBe(404);
  });

  it('a change saved by someone else between plan and apply makes apply stop instead of overwriting it', async () => {
    const token = await loginToken(runtime);
    const management = managementApi({ baseUrl: runtime.url, token, projectId: 'demo' });
    const { config, placeOf } = parseConfigText(
      (await readFile(exampleFile, 'utf8'))
        .replace('default: 20', 'default: 30')
        .replace('database: shop_dev', 'database: shop_2'),
      'concurrent.yaml',
    );
    const plan = buildPlan(
      config,
      await readProjectState(management, environmentsNamedIn(config)),
      {},
      'demo',
    );
    expect(plan.steps.map((s) => s.resource.id)).toEqual(['shop-db', 'orders-by-status']);

    // Someone edits the action in the console meanwhile (version 2 → 3).
    const current = (await api.get('/api/v1/projects/demo/actions/orders-by-status')).body;
    const { projectId: _p, version: _v, createdAt: _c, updatedAt: _u, ...input } = current;
    expect(
      (await api.put('/api/v1/projects/demo/actions/orders-by-status', { ...input, name: 'Edited' })).status,
    ).toBe(200);

    const error = await applyPlan(management, plan).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplyError);
    const failure = error as ApplyError;
    expect(failure.failed.resource.id).toBe('orders-by-status');
    expect(failure.cause.status).toBe(409);
    expect(failure.message).toContain("Action 'orders-by-status' is at version 3");
    expect(failure.applied.map((a) => a.step.resource.id)).toEqual(['shop-db']);
    expect(placeOf(failure.failed.resource.filePath)).toMatch(/^concurrent\.yaml:\d+:5$/);
    expect((await api.get('/api/v1/projects/demo/actions/orders-by-status')).body.name).toBe('Edited');
  });

  it('data sources (no versions) are read again before the write, so a change in between also stops apply', async () => {
    const token = await loginToken(runtime);
    const management = managementApi({ baseUrl: runtime.url, token, projectId: 'demo' });
    const { config } = parseConfigText(
      (await readFile(exampleFile, 'utf8')).replace('timeoutMs: 10000', 'timeoutMs: 20000'),
      'concurrent.yaml',
    );
    const plan = buildPlan(
      config,
      await readProjectState(management, environmentsNamedIn(config)),
      {},
      'demo',
    );
    expect(plan.steps.map((s) => s.resource.id)).toContain('crm-api');

    const current = (await api.get('/api/v1/projects/demo/data-sources/crm-api')).body;
    const { projectId: _p, createdAt: _c, updatedAt: _u, ...input } = current;
    expect(
      (await api.put('/api/v1/projects/demo/data-sources/crm-api', { ...input, name: 'CRM (edited)' }))
        .status,
    ).toBe(200);

    const error = (await applyPlan(management, plan).catch((e: unknown) => e)) as ApplyError;
    expect(error).toBeInstanceOf(ApplyError);
    expect(error.failed.resource.id).toBe('crm-api');
    expect(error.message).toBe('it was changed by someone else after the plan was read');
    expect((await api.get('/api/v1/projects/demo/data-sources/crm-api')).body.name).toBe('CRM (edited)');
  });
});

describe('members, user groups, action groups and publications', () => {
  it('a dry run shows role changes, group members by e-mail, the order and the pin; apply never removes anyone', async () => {
    const path = await writeConfig(
      'governance.yaml',
      `version: 1
project: demo
members:
  - { email: ana@example.com, role: development_lead }
  - { email: Carl@example.com, role: member }
userGroups:
  - id: order-managers
    name: Order managers
    members: [ops@example.com, carl@example.com, ana@example.com]
actionGroups:
  - id: orders
    name: Orders
    actionIds: [order-details, orders-by-status, stock-levels]
publications:
  production:
    orders-by-status: 2
`,
    );
    const dryRun = await dogu(['apply', '-f', path, '--dry-run']);
    expect(dryRun.code).toBe(0);
    expect(changeLines(dryRun.stdout)).toEqual([
      '- `~ update` `ana@example.com`: `"developer" → "development_lead"`',
      '- `+ create` `Carl@example.com`: `"member"`',
      '- `~ update` `order-managers`',
      '- `~ update` `orders`',
      '- `~ update` `production.orders-by-status`: `1 → 2`',
    ]);
    expect(dryRun.stdout).toContain('  - `members[1]: "ops@example.com" → "carl@example.com"`');
    expect(dryRun.stdout).toContain('  - `actionIds[0]: "orders-by-status" → "order-details"`');
    // ops@example.com is no longer in the file: listed, not removed.
    expect(dryRun.stdout).toContain('- member `ops@example.com`');
    expect(dryRun.stdout).toContain('- member `admin@dogu.local`');

    const applied = await dogu(['apply', '-f', path]);
    expect(applied.code).toBe(0);
    const progress = applied.stderr.split('\n');
    // The new member first (the group names it), the role change last.
    expect(progress[0]).toBe('✓ created member Carl@example.com');
    expect(progress[1]).toBe('✓ updated user group order-managers (version 2)');
    expect(progress.filter((l) => l.startsWith('✓')).at(-1)).toBe('✓ updated member ana@example.com');
    const group = await api.get('/api/v1/projects/demo/user-groups/order-managers');
    expect([...group.body.members].sort()).toEqual(
      [await userId('ana@example.com'), 'usr_carl', await userId('ops@example.com')].sort(),
    );
    const ops = await api.get(`/api/v1/projects/demo/members/${await userId('ops@example.com')}`);
    expect(ops.body.role).toBe('operations_lead');
    expect((await api.get('/api/v1/projects/demo/action-groups/orders')).body.actionIds.slice(0, 2)).toEqual([
      'order-details',
      'orders-by-status',
    ]);
    const versions = await api.get('/api/v1/projects/demo/actions/orders-by-status/versions');
    expect(versions.body.publications).toMatchObject([{ environmentId: 'production', version: 2 }]);

    const again = await dogu(['apply', '-f', path]);
    expect(again.stderr).toContain("Nothing to apply: project 'demo' already matches");
  });

  it('group members who are not members of the project, and unknown groups in permissions, are named before any write', async () => {
    const path = await writeConfig(
      'unknown-members.yaml',
      `version: 1
project: demo
variables:
  development:
    governance_test: "1"
userGroups:
  - id: auditors
    name: Auditors
    members: [nobody@example.com]
actions:
  - id: restricted-action
    name: Restricted
    kind: sql
    dataSourceId: demo-postgres
    statements: [{ title: One, sql: SELECT 1 }]
    permission: { mode: restricted, groups: [no-such-group] }
`,
    );
    const result = await dogu(['apply', '-f', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `dogu: ${path}:9:15: 'nobody@example.com' is not a member of project 'demo': add it under members`,
    );
    expect(result.stderr).toContain(
      `dogu: ${path}:16:46: no user group 'no-such-group' in the file or in the project`,
    );
    expect(
      (await api.get('/api/v1/projects/demo/environments/development/variables/governance_test')).status,
    ).toBe(404);
    expect((await api.get('/api/v1/projects/demo/user-groups/auditors')).status).toBe(404);
  });

  it('a member whose e-mail address names no user is invited: their first sign-in is that member', async () => {
    const path = await writeConfig(
      'ghost.yaml',
      `version: 1
project: demo
members:
  - { email: Ghost@example.com, role: member }
`,
    );
    const dryRun = await dogu(['apply', '-f', path, '--dry-run']);
    expect(dryRun.code).toBe(0);
    expect(dryRun.stderr).toBe('');
    const result = await dogu(['apply', '-f', path]);
    expect(result.stderr).toContain('✓ created member Ghost@example.com');
    expect(result.code).toBe(0);
    const invited = await runtime.services.store.getUserByEmail('ghost@example.com');
    expect(invited).toMatchObject({ email: 'ghost@example.com' });
    // The first SSO sign-in with that address finds the invited user, already a member.
    const { loginWithIdentity } = await import('../../shared/adapters/oidc/sso-login.ts');
    const event = { headers: {}, requestContext: { http: { sourceIp: '127.0.0.1', userAgent: 'test' } } };
    const { user } = await loginWithIdentity(
      runtime.services,
      { email: 'ghost@example.com', name: 'Ghost' },
      { client: 'cli', event: event as never },
    );
    expect(user.id).toBe(invited!.id);
    const member = await api.get(`/api/v1/projects/demo/members/${invited!.id}`);
    expect(member.body).toMatchObject({ email: 'ghost@example.com', role: 'member' });
  });

  it('a version that does not exist, and leaving the project without an administrator, are refused before any write', async () => {
    const path = await writeConfig(
      'bad-pins.yaml',
      `version: 1
project: demo
members:
  - { email: admin@dogu.local, role: developer }
publications:
  production:
    orders-by-status: 99
`,
    );
    const result = await dogu(['apply', '-f', path, '--dry-run']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /bad-pins\.yaml:4:\d+: this would leave project 'demo' without an administrator/,
    );
    expect(result.stderr).toMatch(
      /bad-pins\.yaml:7:23: action 'orders-by-status' has no version 99: the latest is \d+/,
    );
  });

  it('what the service refuses when it saves an action is in the dry run, and apply writes nothing', async () => {
    const path = await writeConfig(
      'bad-actions.yaml',
      `version: 1
project: demo
variables:
  development:
    bad_actions_test: "1"
actions:
  - id: orphan
    name: Orphan
    kind: sql
    dataSourceId: no-such-source
    parameters:
      - { name: status, kind: text, masterData: no_such_list }
    statements: [{ title: t, sql: SELECT 1 }]
  - id: locked
    name: Locked
    kind: sql
    dataSourceId: shop-db
    permission: { mode: javascript_action, javascriptActionId: order-details }
    statements: [{ title: t, sql: SELECT 1 }]
`,
    );
    const dryRun = await dogu(['apply', '-f', path, '--dry-run']);
    expect(dryRun.code).toBe(1);
    const problems = dryRun.stderr.split('\n').map((line) => line.replace(`dogu: ${path}:`, '').trim());
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^10:\d+: no data source 'no-such-source' in the file or in the project$/),
        expect.stringMatching(/^12:\d+: no master data list 'no_such_list' in the file or in the project$/),
        expect.stringMatching(
          /^18:\d+: only a JavaScript action can hold "only from a JavaScript action" \('order-details' is a sql action, not a JavaScript action\); otherwise nobody could run 'locked'$/,
        ),
      ]),
    );
    const applied = await dogu(['apply', '-f', path]);
    expect(applied.code).toBe(1);
    expect(
      (await api.get('/api/v1/projects/demo/environments/development/variables/bad_actions_test')).status,
    ).toBe(404);
    expect((await api.get('/api/v1/projects/demo/actions/locked')).status).toBe(404);
  });
});

describe('service accounts and trust policies', () => {
  const accountsFile = (ref: string, more = '') => `version: 1
project: demo
serviceAccounts:
  - name: ci-deploy
    description: Applies this file from CI
    role: developer
    trustPolicies:
      - id: github-main
        issuer: https://token.actions.githubusercontent.com
        audience: dogu
        boundClaims:
          - { key: repository, pattern: example/shop-config }
          - { key: ref, pattern: ${ref} }
${more}`;
  const accountId = async (name: string) =>
    (await api.get('/api/v1/projects/demo/service-accounts')).body.data.find(
      (a: { name: string }) => a.name === name,
    )?.id as string;
  const policyOf = async (name: string, policyId: string) =>
    (
      await api.get(
        `/api/v1/projects/demo/service-accounts/${await accountId(name)}/trust-policies/${policyId}`,
      )
    ).body;

  it('an unchanged account and policy are not sent; a changed bound claim is shown with the revocation warning', async () => {
    const unchanged = await writeConfig('accounts.yaml', accountsFile('refs/heads/main'));
    const same = await dogu(['apply', '-f', unchanged, '--dry-run']);
    expect(same.code).toBe(0);
    expect(changeLines(same.stdout)).toEqual([]);
    expect(same.stdout).toContain('- `= unchanged` `ci-deploy.github-main`');
    expect(same.stdout).not.toContain('⚠');
    const before = await policyOf('ci-deploy', 'github-main');
    const again = await dogu(['apply', '-f', unchanged]);
    expect(again.stderr).toContain("Nothing to apply: project 'demo' already matches");
    expect((await policyOf('ci-deploy', 'github-main')).generation).toBe(before.generation);

    const changed = await writeConfig('accounts-changed.yaml', accountsFile('refs/heads/release'));
    const dryRun = await dogu(['apply', '-f', changed, '--dry-run']);
    expect(dryRun.code).toBe(0);
    expect(changeLines(dryRun.stdout)).toEqual(['- `~ update` `ci-deploy.github-main`']);
    const block = dryRun.stdout
      .slice(dryRun.stdout.indexOf('- `~ update` `ci-deploy.github-main`'))
      .split('\n');
    expect(block.slice(1, 3)).toEqual([
      '  - `boundClaims[1].pattern: "refs/heads/main" → "refs/heads/release"`',
      '  - ⚠ changing a trust policy revokes the access tokens issued under it: workloads using them must exchange a new ID token',
    ]);
    // The dry run changed nothing: same content, same generation.
    expect(await policyOf('ci-deploy', 'github-main')).toMatchObject({
      generation: before.generation,
      boundClaims: [{}, { key: 'ref', pattern: 'refs/heads/main' }],
    });

    const applied = await dogu(['apply', '-f', changed]);
    expect(applied.code).toBe(0);
    expect(applied.stderr).toContain(
      '✓ updated trust policy ci-deploy.github-main (tokens issued under it are revoked)',
    );
    const after = await policyOf('ci-deploy', 'github-main');
    expect(after.boundClaims[1]).toEqual({ key: 'ref', pattern: 'refs/heads/release' });
    expect(after.generation).toBeGreaterThan(before.generation);
  });

  it('creates an account with its policies in one go, changes its role through the members API, never deletes', async () => {
    const path = await writeConfig(
      'accounts-new.yaml',
      accountsFile(
        'refs/heads/release',
        `  - name: nightly-report
    role: member
    disabled: true
    trustPolicies:
      - id: gitlab-nightly
        issuer: https://gitlab.example.com
        audience: https://dogu.example.com
        boundClaims: [{ key: project_path, pattern: example/reports }]
`,
      ),
    );
    const dryRun = await dogu(['apply', '-f', path, '--dry-run']);
    expect(changeLines(dryRun.stdout)).toEqual([
      '- `+ create` `nightly-report`',
      '- `+ create` `nightly-report.gitlab-nightly`',
    ]);
    const applied = await dogu(['apply', '-f', path]);
    expect(applied.code).toBe(0);
    expect(applied.stderr.split('\n').filter((l) => l.startsWith('✓'))).toEqual([
      '✓ created service account nightly-report',
      '✓ updated service account nightly-report (disabled)',
      '✓ created trust policy nightly-report.gitlab-nightly',
    ]);
    const id = await accountId('nightly-report');
    expect(id).toMatch(/^sa_/);
    const account = await api.get(`/api/v1/projects/demo/service-accounts/${id}`);
    expect(account.body).toMatchObject({
      email: 'nightly-report@demo.sa.dogu',
      role: 'member',
      disabled: true,
    });
    expect((await policyOf('nightly-report', 'gitlab-nightly')).audience).toBe('https://dogu.example.com');
    const again = await dogu(['apply', '-f', path, '--dry-run']);
    expect(changeLines(again.stdout)).toEqual([]);

    // A role change is a change of the account's membership; an account left out is listed, not deleted.
    const roleChanged = await writeConfig(
      'accounts-role.yaml',
      `version: 1
project: demo
serviceAccounts:
  - { name: nightly-report, role: operations_lead, disabled: true, trustPolicies: [] }
`,
    );
    const roleDryRun = await dogu(['apply', '-f', roleChanged, '--dry-run']);
    expect(changeLines(roleDryRun.stdout)).toEqual(['- `~ update` `nightly-report`']);
    expect(roleDryRun.stdout).toContain('  - `role: "member" → "operations_lead"`');
    expect(roleDryRun.stdout).toContain('- service account `ci-deploy`');
    expect(roleDryRun.stdout).toContain('- trust policy `nightly-report.gitlab-nightly`');
    const roleApplied = await dogu(['apply', '-f', roleChanged]);
    expect(roleApplied.code).toBe(0);
    expect(roleApplied.stderr).toContain('✓ updated service account nightly-report (role operations_lead)');
    expect((await api.get(`/api/v1/projects/demo/members/${id}`)).body.role).toBe('operations_lead');
    expect(await accountId('ci-deploy')).toMatch(/^sa_/);
    expect((await policyOf('nightly-report', 'gitlab-nightly')).id).toBe('gitlab-nightly');
  });

  it('export → apply --dry-run shows no change for accounts and policies', async () => {
    const output = join(files.path, 'exported-accounts.yaml');
    expect((await dogu(['export', '-o', output])).code).toBe(0);
    const text = await readFile(output, 'utf8');
    expect(text).toContain('  - name: nightly-report\n    role: operations_lead\n    disabled: true\n');
    expect(text).not.toContain('sa_');
    const dryRun = await dogu(['apply', '-f', output, '--dry-run']);
    expect(dryRun.code).toBe(0);
    expect(changeLines(dryRun.stdout)).toEqual([]);
    expect(dryRun.stdout).toContain('- `= unchanged` `nightly-report.gitlab-nightly`');
    expect(dryRun.stdout).not.toContain('### Not in the file');
  });
});

describe('views', () => {
  const viewFile = (heading: string, actionId = 'list-orders') => `version: 1
project: demo
views:
  - id: config-view
    name: Config view
    definition:
      kind: visual
      queries:
        - id: orders
          actionId: ${actionId}
          arguments: { status: "'paid'" }
          runOn: load
      layout:
        id: root
        type: grid
        columns: 1
        children:
          - { id: heading, type: markdown, content: "${heading}" }
          - { id: table, type: table, query: orders }
`;

  it('creates a view, updates it with a new version, then finds nothing to change', async () => {
    const path = await writeConfig('view.yaml', viewFile('# Orders'));
    const created = await dogu(['apply', '-f', path]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain('✓ created view config-view (version 1)');
    await writeConfig('view.yaml', viewFile('# Paid orders'));
    const dryRun = await dogu(['apply', '-f', path, '--dry-run']);
    expect(dryRun.stdout).toContain('### Views\n\n- `~ update` `config-view`');
    expect(dryRun.stdout).toContain('definition.layout.children[0].content');
    const updated = await dogu(['apply', '-f', path]);
    expect(updated.code, updated.stderr).toBe(0);
    const view = await api.get('/api/v1/projects/demo/views/config-view');
    expect(view.body.version).toBe(2);
    expect(view.body.definition.layout.children[0].content).toBe('# Paid orders');
    const again = await dogu(['apply', '-f', path, '--dry-run']);
    expect(changeLines(again.stdout)).toEqual([]);
  });

  it('a dry run names an action the view uses that neither the file nor the project has', async () => {
    const path = await writeConfig('view-bad.yaml', viewFile('# x', 'no-such-action'));
    const result = await dogu(['apply', '-f', path, '--dry-run']);
    expect(result.code).toBe(1);
    // Line 10 column 21 of the file: the query's actionId.
    expect(result.stderr).toContain(
      `${path}:10:21: no action 'no-such-action' in the file or in the project`,
    );
  });

  it('a dry run names an expression the service would refuse, at its place in the file', async () => {
    const text = viewFile('{{ queries.nope.rows.length }} orders').replace(`"'paid'"`, `"'paid' +"`);
    const path = await writeConfig('view-bad-expression.yaml', text);
    const result = await dogu(['apply', '-f', path, '--dry-run']);
    expect(result.code).toBe(1);
    // Line 11: `arguments: { status: "'paid' +" }`; the value's quote is column 32, the error is
    // after the `+` (column 9 of the expression), so column 41 of the file.
    expect(result.stderr).toContain(
      `${path}:11:41: syntax error in the expression at line 1, column 9: Expected expression after +`,
    );
    // A reference has no position inside the expression: the place of the field.
    expect(result.stderr).toContain(`${path}:18:53: uses queries.nope, but this view has no query 'nope'`);
  });

  it('pins a view version per environment, including the version the same apply creates', async () => {
    const path = await writeConfig(
      'view-pin.yaml',
      `${viewFile('# Pinned')}viewPublications:\n  production:\n    config-view: 3\n`,
    );
    const dryRun = await dogu(['apply', '-f', path, '--dry-run']);
    expect(dryRun.stdout).toContain('### View publications\n\n- `+ create` `production.config-view`');
    const applied = await dogu(['apply', '-f', path]);
    expect(applied.code, applied.stderr).toBe(0);
    const shown = await api.get('/api/v1/projects/demo/environments/production/views/config-view');
    expect(shown.body).toMatchObject({ version: 3, published: true });
    const tooFar = await writeConfig(
      'view-pin-bad.yaml',
      `${viewFile('# Pinned')}viewPublications:\n  production:\n    config-view: 9\n`,
    );
    const refused = await dogu(['apply', '-f', tooFar, '--dry-run']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("view 'config-view' has no version 9: the latest is 3");
  });

  it('export writes the views (the code view as its source) and applying the export changes nothing', async () => {
    const result = await dogu(['export', '--project', 'demo']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('views:\n  - id: config-view\n');
    expect(result.stdout).toMatch(/ {2}- id: sales-dashboard\n(.*\n)* {6}kind: code\n/);
    expect(result.stdout).toContain("import { runAction } from 'dogu';");
    expect(result.stdout).not.toContain('compiled');
    expect(result.stdout).toContain('viewPublications:\n  production:\n    config-view: 3\n');
    const path = await writeConfig('views-export.yaml', result.stdout);
    const dryRun = await dogu(['apply', '-f', path, '--dry-run']);
    expect(dryRun.code).toBe(0);
    expect(changeLines(dryRun.stdout)).toEqual([]);
  });
});
