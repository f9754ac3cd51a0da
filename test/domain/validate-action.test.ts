import { describe, expect, it } from 'vitest';
import { createActionEngines } from '../../shared/connectors/engines.ts';
import { actionInputSchema } from '../../shared/connectors/schemas.ts';
import type { ActionInput } from '../../shared/domain/definitions/action.ts';
import { DoguError } from '../../shared/domain/errors.ts';
import type { DataSource } from '../../shared/domain/model.ts';
import { validateAction } from '../../shared/domain/validate-action.ts';

const stored = { projectId: 'p', createdAt: 'now', updatedAt: 'now' };
const pg: DataSource = {
  ...stored,
  id: 'pg',
  name: 'PG',
  kind: 'postgresql',
  environments: { dev: { host: 'h', port: 5432, database: 'd', user: 'u' } },
};
const api: DataSource = {
  ...stored,
  id: 'api',
  name: 'API',
  kind: 'http',
  environments: { dev: { url: 'http://x' } },
};
const engines = createActionEngines({ poolSize: 1 });
const known = {
  variables: new Set(['region']),
  secrets: new Set(['token']),
  masterData: new Set(['statuses']),
};

const sql = (over: Record<string, unknown>): ActionInput =>
  actionInputSchema.parse({
    id: 'a',
    name: 'A',
    kind: 'sql',
    dataSourceId: 'pg',
    statements: [{ title: 'T', sql: 'SELECT 1' }],
    ...over,
  });
const http = (over: Record<string, unknown>): ActionInput =>
  actionInputSchema.parse({ id: 'a', name: 'A', kind: 'http', dataSourceId: 'api', method: 'GET', ...over });

function problems(
  action: ActionInput,
  dataSource: DataSource | undefined = action.kind === 'sql' ? pg : api,
) {
  try {
    validateAction(action, dataSource, known, engines);
  } catch (error) {
    expect(error).toBeInstanceOf(DoguError);
    expect((error as DoguError).code).toBe('invalid_definition');
    return (error as DoguError).errors ?? [];
  }
  return [];
}

describe('validateAction', () => {
  it('accepts parameters, vars, secrets and currentUser in SQL', () => {
    const action = sql({
      parameters: [{ name: 's', kind: 'text' }],
      statements: [
        {
          title: 'T',
          sql: 'SELECT {{ s }}, {{ vars.region }}, {{ secrets.token }}, {{ currentUser.email }}',
        },
      ],
    });
    expect(problems(action)).toEqual([]);
  });

  it.each(['json', 'file', 'system'])('refuses the %s kind in SQL actions when saved', (kind) => {
    const parameter = kind === 'system' ? { name: 'x', kind, value: 'now' } : { name: 'x', kind };
    expect(problems(sql({ parameters: [parameter] }))).toEqual([
      { pointer: '#/parameters/0/kind', detail: `the ${kind} kind cannot be used in SQL actions (spec 2.2)` },
    ]);
  });

  it('names an unknown parameter, variable or secret', () => {
    const action = sql({
      statements: [{ title: 'T', sql: 'SELECT {{ nope }}, {{ vars.nope }}, {{ secrets.nope }}' }],
    });
    expect(problems(action).map((p) => p.detail)).toEqual([
      '{{ nope }} is not a parameter, vars.*, secrets.* or currentUser.* of this action',
      "{{ vars.nope }}: no variable 'nope' is defined in any environment",
      "{{ secrets.nope }}: no secret 'nope' is defined in any environment",
    ]);
  });

  it('refuses a reference written inside quotes', () => {
    const action = sql({
      parameters: [{ name: 's', kind: 'text' }],
      statements: [{ title: 'T', sql: "SELECT '{{ s }}'" }],
    });
    expect(problems(action)[0]?.detail).toContain('stands inside a string');
  });

  it('refuses a SQL action on an HTTP data source and the reverse', () => {
    expect(problems(sql({}), api)[0]).toEqual({
      pointer: '#/kind',
      detail: "a sql action cannot run on the http data source 'api', which runs http actions",
    });
    expect(problems(http({}), pg)[0]?.pointer).toBe('#/kind');
  });

  it('refuses an unknown data source', () => {
    expect(() => validateAction(sql({}), undefined, known, engines)).toThrow(
      "Data source 'pg' does not exist",
    );
  });

  it('refuses duplicate parameter names, invalid patterns and defaults that break the rules', () => {
    const action = sql({
      parameters: [
        { name: 'a', kind: 'text', pattern: '(' },
        { name: 'a', kind: 'number' },
        { name: 'n', kind: 'number', min: 5, default: 1 },
      ],
    });
    expect(problems(action)).toEqual(
      expect.arrayContaining([
        { pointer: '#/parameters/1/name', detail: "'a' is used by two parameters" },
        {
          pointer: '#/parameters/0/pattern',
          detail: expect.stringMatching(/^is not a valid regular expression \(missing closing \)/),
        },
        { pointer: '#/parameters/2/default', detail: "'n' must be at least 5." },
      ]),
    );
  });

  it('checks references in every HTTP text, and authToken needs an auth action', () => {
    const action = http({
      method: 'POST',
      path: '/items/{{ id }}',
      headers: [{ key: 'Authorization', value: 'Bearer {{ authToken }}' }],
      query: [{ key: 'q', value: '{{ missing }}' }],
      body: { type: 'json', json: '{"a": {{ vars.region }}}' },
      parameters: [{ name: 'id', kind: 'text' }],
    });
    expect(problems(action).map((p) => p.pointer)).toEqual(['#/headers/0/value', '#/query/0/value']);
    const withAuth: DataSource = { ...api, authAction: { actionId: 'login' } } as DataSource;
    expect(problems(action, withAuth).map((p) => p.pointer)).toEqual(['#/query/0/value']);
  });

  it('refuses a body on GET and the SQL array format in HTTP actions', () => {
    const action = http({
      body: { type: 'json', json: '{}' },
      parameters: [{ name: 'ids', kind: 'array', itemKind: 'number', format: 'sql' }],
    });
    expect(
      problems(action)
        .map((p) => p.pointer)
        .sort(),
    ).toEqual(['#/body/type', '#/parameters/0/format']);
  });
});

describe('validateAction: text patterns (docs/decisions/0027)', () => {
  it('refuses, naming the field, patterns the linear-time matcher cannot run and over-long patterns', () => {
    const action = sql({
      parameters: [
        { name: 'backreference', kind: 'text', pattern: '(a)\\1' },
        { name: 'lookahead', kind: 'text', pattern: '(?=a)a' },
        { name: 'long', kind: 'text', pattern: 'a'.repeat(1001) },
        { name: 'fine', kind: 'text', pattern: '(\\w+\\s?)*' },
      ],
    });
    const found = problems(action);
    expect(found.map((p) => p.pointer)).toEqual([
      '#/parameters/0/pattern',
      '#/parameters/1/pattern',
      '#/parameters/2/pattern',
    ]);
    expect(found[0]!.detail).toMatch(/invalid escape sequence: `\\1`.*no backreferences/);
    expect(found[1]!.detail).toMatch(/unsupported Perl syntax: `\(\?=`.*lookaround/);
    expect(found[2]!.detail).toBe('is longer than 1000 characters');
  });
});

describe('validateAction: HTTP action paths stay under the data source URL', () => {
  it('refuses a path with a dot segment when the action is saved, naming #/path', () => {
    for (const path of ['/v1/../admin', '/%2e%2e/admin']) {
      expect(problems(http({ method: 'GET', path }))).toEqual([
        {
          pointer: '#/path',
          detail: expect.stringMatching(/^must not contain '\.' or '\.\.' segments/),
        },
      ]);
    }
  });
});
