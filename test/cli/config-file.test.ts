/**
 * The config file without a runtime: its published JSON Schema, validation with locations, the
 * order of writes a plan chooses, and how changes are shown.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fieldChanges } from '../../cli/config/diff.ts';
import { configJsonSchemaText } from '../../cli/config/json-schema.ts';
import { lineDiff } from '../../cli/config/line-diff.ts';
import { ConfigFileError, parseConfigText } from '../../cli/config/load.ts';
import type { StoredAction, StoredResource } from '../../cli/config/management-api.ts';
import { buildPlan } from '../../cli/config/plan.ts';
import type { ProjectState } from '../../cli/config/project-state.ts';
import { code, renderPlan } from '../../cli/config/render-plan.ts';
import { repoRoot, run } from '../support/process.ts';
import { tempDir } from '../support/runtime.ts';

const problemsOf = (text: string) => {
  try {
    parseConfigText(text, 'dogu.yaml');
  } catch (error) {
    if (error instanceof ConfigFileError) return error.message.split('\n');
    throw error;
  }
  throw new Error('expected the file to be refused');
};

describe('the published JSON Schema', () => {
  it('docs/dogu-config.schema.json is what the generator makes now (run `npm run schema` after a change)', async () => {
    const committed = await readFile(join(repoRoot, 'docs/dogu-config.schema.json'), 'utf8');
    expect(committed).toBe(configJsonSchemaText());
  });

  it('`dogu schema` prints it', async () => {
    const home = await tempDir('schema-home');
    try {
      const result = await run(process.execPath, ['cli/bin.js', 'schema'], { HOME: home.path });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(configJsonSchemaText());
    } finally {
      await home.remove();
    }
  });

  it('names its shared definitions and refuses unknown fields, as apply does', () => {
    const schema = JSON.parse(configJsonSchemaText());
    expect(Object.keys(schema.$defs).sort()).toEqual([
      'Action',
      'ActionGroup',
      'AthenaConnection',
      'BigqueryConnection',
      'Choice',
      'CronJob',
      'DataSource',
      'DocumentActionInput',
      'FirestoreConnection',
      'GcsConnection',
      'GoogleSheetsConnection',
      'GrpcActionInput',
      'GrpcConnection',
      'HttpActionInput',
      'HttpBody',
      'HttpConnection',
      'JavascriptActionInput',
      'JavascriptConnection',
      'KeyValueList',
      'MasterDataList',
      'Member',
      'Parameter',
      'S3Connection',
      'Schedule',
      'SecretReference',
      'SheetsActionInput',
      'SqlActionInput',
      'SqlConnection',
      'StorageActionInput',
      'UserGroup',
      'ViewComponent',
      'ViewDefinition',
      'ViewEvent',
      'ViewExpression',
      'ViewInput',
    ]);
    expect(schema.required).toEqual(['version', 'project']);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.$defs.SqlConnection.properties.passwordFromEnv.type).toBe('string');
    expect(schema.$defs.SecretReference.required).toEqual(['fromEnv']);
    expect(schema.$defs.AthenaConnection.properties.secretAccessKeyFromEnv.type).toBe('string');
    expect(schema.$defs.BigqueryConnection.properties.serviceAccountKeyFromEnv.type).toBe('string');
  });
});

describe('validation', () => {
  it('accepts the documented example', async () => {
    const text = await readFile(join(repoRoot, 'docs/examples/dogu.yaml'), 'utf8');
    const { config } = parseConfigText(text, 'docs/examples/dogu.yaml');
    expect(config.dataSources.map((d) => d.kind)).toEqual(['postgresql', 'mysql', 'http']);
    // Defaults are applied as the API would: an HTTP action without headers has `headers: []`.
    const login = config.actions.find((a) => a.id === 'crm-login');
    expect(login).toMatchObject({ kind: 'http', headers: [], query: [], parameters: [] });
  });

  it('reports every problem with its line, column and path, in file order', () => {
    const text = `version: 2
project: demo
paramaters: 1
variables:
  development:
    page_size: 50
secrets:
  development:
    api_key: sk-live-1234
dataSources:
  - id: shop
    name: Shop
    kind: postgresql
    environments:
      development: { host: h, port: 5432, database: d, user: u, password: hunter2 }
actions:
  - id: a
    name: A
    kind: sql
    dataSourceId: shop
    statements: [{ title: T, sql: "SELECT 1" }]
    parameters:
      - name: x
        kind: texte
  - id: b
    name: B
    kind: sql
    dataSourceId: shop
    statments: []
  - id: a
    name: C
    kind: sql
    dataSourceId: shop
    statements: [{ title: T, sql: "SELECT 1", titel: x }]
`;
    expect(problemsOf(text)).toEqual([
      'dogu.yaml has 10 problems; nothing was sent:',
      '  dogu.yaml:1:10: version: must be 1, the version of this file format',
      "  dogu.yaml:3:1: paramaters: unknown field 'paramaters'",
      '  dogu.yaml:6:16: variables.development.page_size: a variable value is text: put it in quotes, e.g. "50"',
      '  dogu.yaml:9:14: secrets.development.api_key: a secret is referenced, never written in the file: use { fromEnv: ENV_VAR_NAME }',
      '  dogu.yaml:15:75: dataSources[0].environments.development.password: a password is never written in the file: use passwordFromEnv: ENV_VAR_NAME',
      '  dogu.yaml:24:15: actions[0].parameters[0].kind: unknown kind "texte"; expected one of: text, number, boolean, date, array, tuple, sql, json, file, system',
      '  dogu.yaml:25:5: actions[1].statements: is required',
      "  dogu.yaml:29:5: actions[1].statments: unknown field 'statments'",
      "  dogu.yaml:30:9: actions[2].id: 'a' is already the id of actions[0]",
      "  dogu.yaml:34:47: actions[2].statements[0].titel: unknown field 'titel'",
    ]);
  });

  it('reports YAML syntax errors at their place', () => {
    const unclosed = problemsOf('version: 1\nproject: demo\nactions: [\n  { id: a\n');
    expect(unclosed[0]).toMatch(/^dogu\.yaml has \d+ problems?; nothing was sent:$/);
    expect(unclosed[1]).toBe(
      '  dogu.yaml:5:1: YAML: Flow map in block collection must be sufficiently indented and end with a }',
    );
    expect(problemsOf('version: 1\nproject: demo\nproject: other\n')).toEqual([
      'dogu.yaml has 1 problem; nothing was sent:',
      '  dogu.yaml:3:1: YAML: Map keys must be unique',
    ]);
    expect(problemsOf('')).toEqual([
      'dogu.yaml has 1 problem; nothing was sent:',
      '  dogu.yaml: the file is empty',
    ]);
  });

  it('the CLI refuses a broken file before reading credentials or sending anything', async () => {
    const dir = await tempDir('broken-config');
    try {
      const file = join(dir.path, 'dogu.yaml');
      await import('node:fs/promises').then(({ writeFile }) =>
        writeFile(file, 'version: 1\nproject: demo\nactions:\n  - id: a\n    name: A\n    kind: graphql\n'),
      );
      // No credentials in this HOME and nothing listening at the URL: either would be the error if reached.
      const result = await run(
        process.execPath,
        ['cli/bin.js', 'apply', '-f', file, '--url', 'http://127.0.0.1:1'],
        {
          HOME: dir.path,
        },
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `dogu: ${file} has 1 problem; nothing was sent:\n  ${file}:6:11: actions[0].kind: unknown kind "graphql"; expected one of: sql, http, grpc, sheets, storage, javascript, document\n`,
      );
      expect(result.stdout).toBe('');
    } finally {
      await dir.remove();
    }
  });
});

/** A project state as readProjectState would return it. */
function state(parts: { dataSources?: StoredResource[]; actions?: StoredAction[] } = {}): ProjectState {
  const environments = new Map([['development', new Map()]]);
  return {
    dataSources: new Map((parts.dataSources ?? []).map((d) => [d.id, d])),
    actions: new Map((parts.actions ?? []).map((a) => [a.id, a])),
    masterData: new Map(),
    variables: environments,
    secrets: new Map([['development', new Map()]]),
    members: [],
    userGroups: new Map(),
    actionGroups: new Map(),
    views: new Map(),
    serviceAccounts: new Map(),
    publications: new Map(),
    viewPublications: new Map(),
    cronJobs: new Map(),
    protectedEnvironments: new Set(),
    notifications: { allowPrivateNetworks: false, targets: [], rules: [] },
    missingEnvironments: [],
  };
}

const httpProject = `version: 1
project: p
variables:
  development: { region: eu }
dataSources:
  - id: api
    name: API
    kind: http
    environments: { development: { url: "https://api.example.com" } }
    authAction: { actionId: api-login }
  - id: db
    name: DB
    kind: postgresql
    environments: { development: { host: h, port: 5432, database: d, user: u } }
actions:
  - id: api-me
    name: Me
    kind: http
    dataSourceId: api
    method: GET
    headers: [{ key: Authorization, value: "Bearer {{ authToken }}" }]
  - id: api-login
    name: Log in
    kind: http
    dataSourceId: api
    method: POST
`;

describe('the order of writes', () => {
  const { config } = parseConfigText(httpProject, 'dogu.yaml');
  const order = (plan: ReturnType<typeof buildPlan>) =>
    plan.steps.map((s) => `${s.resource.id}${s.note?.startsWith('first') ? ' (without authAction)' : ''}`);

  it('a fresh project: the new data source without its new authentication action, that action, the data source with it, then the rest', () => {
    const plan = buildPlan(config, state(), {}, 'p');
    expect(order(plan)).toEqual([
      'development.region',
      'api (without authAction)',
      'db',
      'api-login',
      'api',
      'api-me',
    ]);
    expect(plan.steps[1]!.body).not.toHaveProperty('authAction');
    expect(plan.steps[4]!.body).toHaveProperty('authAction', { actionId: 'api-login' });
    expect(plan.steps.every((s) => s.resource.kind !== 'action' || s.ifMatch === 0)).toBe(true);
  });

  it('an existing data source gaining a new authentication action is saved once, after that action', () => {
    const stored = {
      id: 'api',
      name: 'API',
      kind: 'http',
      environments: { development: { url: 'https://api.example.com' } },
    };
    const plan = buildPlan(config, state({ dataSources: [stored] }), {}, 'p');
    expect(order(plan)).toEqual(['development.region', 'db', 'api-login', 'api', 'api-me']);
    expect(plan.resources.find((r) => r.id === 'api')!.fields).toEqual([
      { kind: 'added', path: ['authAction'], after: { actionId: 'api-login' } },
    ]);
  });

  it('an authentication action in neither the file nor the project is a problem before any write', () => {
    const { config: withoutLogin } = parseConfigText(
      httpProject.replace('actionId: api-login', 'actionId: nope'),
      'x',
    );
    expect(buildPlan(withoutLogin, state(), {}, 'p').problems).toEqual([
      {
        path: ['dataSources', 0, 'authAction', 'actionId'],
        message: "no action 'nope' in the file or in the project",
      },
    ]);
  });
});

describe('showing changes', () => {
  it('names changed fields by path, with short values', () => {
    const before = {
      parameters: [{ name: 'a' }, { name: 'limit', default: 20 }],
      statements: [{ sql: 'a\nb' }],
    };
    const after = {
      parameters: [{ name: 'a' }, { name: 'limit', default: 50 }],
      statements: [{ sql: 'a\nc' }],
    };
    expect(fieldChanges(before, after)).toEqual([
      { kind: 'changed', path: ['parameters', 1, 'default'], before: 20, after: 50 },
      { kind: 'changed', path: ['statements', 0, 'sql'], before: 'a\nb', after: 'a\nc' },
    ]);
  });

  it('shows the changed lines of a multi-line text', () => {
    const before = [
      'SELECT id',
      'FROM orders',
      'WHERE status = {{ status }}',
      'ORDER BY id',
      'LIMIT 20',
    ].join('\n');
    const after = before.replace('ORDER BY id', 'ORDER BY id DESC');
    expect(lineDiff(before, after)).toEqual([
      ' …',
      ' WHERE status = {{ status }}',
      '-ORDER BY id',
      '+ORDER BY id DESC',
      ' LIMIT 20',
    ]);
  });

  it('keeps code spans intact around backticks', () => {
    expect(code('a')).toBe('`a`');
    expect(code('SELECT `id`')).toBe('`` SELECT `id` ``');
  });

  it('renders a plan as Markdown without write-only values', () => {
    const { config } = parseConfigText(
      'version: 1\nproject: p\nsecrets:\n  development:\n    token: { fromEnv: TOKEN }\n',
      'dogu.yaml',
    );
    const markdown = renderPlan(buildPlan(config, state(), { TOKEN: 'value-never-shown' }, 'p'), {
      dryRun: true,
    });
    expect(markdown).toBe(
      [
        '## Dogu plan for project `p`',
        '',
        '**1 to create, 0 to update, 0 unchanged.** Apply never deletes.',
        '',
        '### Secrets',
        '',
        '- `+ create` `development.token` set from `$TOKEN` (write-only: sent on every apply)',
        '',
        '_Dry run: nothing was changed._',
        '',
      ].join('\n'),
    );
  });
});
