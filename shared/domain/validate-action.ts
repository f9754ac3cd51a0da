/**
 * Checks an action definition before it is saved, so that what runs later can
 * only fail on its arguments or the data source, never on its own definition.
 */
import type { ActionInput } from './definitions/action.ts';
import { kindsRefusedInSql } from './definitions/parameter.ts';
import { DoguError, type FieldError } from './errors.ts';
import type { DataSource } from './model.ts';
import { bindArguments } from './parameters.ts';
import { scanSql } from './sql-scan.ts';
import { referencesIn } from './template.ts';

export const currentUserReferences = ['currentUser.id', 'currentUser.name', 'currentUser.email'];

export interface KnownNames {
  /** Variable and secret names defined in at least one environment of the project. */
  variables: ReadonlySet<string>;
  secrets: ReadonlySet<string>;
  masterData: ReadonlySet<string>;
}

export function validateAction(
  action: ActionInput,
  dataSource: DataSource | undefined,
  known: KnownNames,
): void {
  const errors: FieldError[] = [];
  const fail = (pointer: string, detail: string) => errors.push({ pointer, detail });

  if (!dataSource) {
    throw new DoguError(
      'invalid_definition',
      `Data source '${action.dataSourceId}' does not exist in this project.`,
      {
        errors: [{ pointer: '#/dataSourceId', detail: `no data source '${action.dataSourceId}'` }],
      },
    );
  }
  const sqlSource = dataSource.kind === 'postgresql' || dataSource.kind === 'mysql';
  if (action.kind === 'sql' && !sqlSource)
    fail('#/kind', `a SQL action needs a SQL data source; '${dataSource.id}' is ${dataSource.kind}`);
  if (action.kind === 'http' && dataSource.kind !== 'http')
    fail('#/kind', `an HTTP action needs an HTTP data source; '${dataSource.id}' is ${dataSource.kind}`);

  const names = new Set<string>();
  action.parameters.forEach((parameter, i) => {
    if (names.has(parameter.name))
      fail(`#/parameters/${i}/name`, `'${parameter.name}' is used by two parameters`);
    names.add(parameter.name);
    if (action.kind === 'sql' && kindsRefusedInSql.includes(parameter.kind)) {
      fail(`#/parameters/${i}/kind`, `the ${parameter.kind} kind cannot be used in SQL actions (spec 2.2)`);
    }
    if (action.kind === 'http' && parameter.kind === 'array' && parameter.format === 'sql') {
      fail(`#/parameters/${i}/format`, 'the sql format is for SQL actions; use json or delimiter');
    }
    if ('masterData' in parameter && parameter.masterData && !known.masterData.has(parameter.masterData)) {
      fail(`#/parameters/${i}/masterData`, `no master data list '${parameter.masterData}' in this project`);
    }
    if (parameter.kind === 'text' && parameter.pattern !== undefined) {
      try {
        new RegExp(parameter.pattern, 'u');
      } catch {
        fail(`#/parameters/${i}/pattern`, 'is not a valid regular expression');
      }
    }
  });
  checkDefaults(action, fail);

  const check = (reference: string, pointer: string) => {
    const problem = unknownReference(
      reference,
      names,
      known,
      action.kind === 'http' && dataSource.kind === 'http' && !!dataSource.authAction,
    );
    if (problem) fail(pointer, problem);
  };
  if (action.kind === 'sql') {
    action.statements.forEach((statement, i) => {
      for (const reference of scanSql(statement.sql, dataSource.kind === 'mysql' ? 'mysql' : 'postgresql')) {
        const pointer = `#/statements/${i}/sql`;
        if (reference.insideOf) {
          fail(
            pointer,
            `{{ ${reference.name} }} stands inside a ${reference.insideOf}; values are bound as parameters, so write it without quotes`,
          );
        }
        check(reference.name, pointer);
      }
    });
  } else {
    const texts: [string, string][] = [['#/path', action.path]];
    action.headers.forEach((h, i) => {
      texts.push([`#/headers/${i}/value`, h.value]);
    });
    action.query.forEach((q, i) => {
      texts.push([`#/query/${i}/value`, q.value]);
    });
    const body = action.body;
    if (body.type === 'json') texts.push(['#/body/json', body.json]);
    if (body.type === 'raw') texts.push(['#/body/raw', body.raw]);
    if (body.type === 'graphql' && body.variables) texts.push(['#/body/variables', body.variables]);
    if (body.type === 'form-data' || body.type === 'x-www-form-urlencoded') {
      body.fields.forEach((f, i) => {
        texts.push([`#/body/fields/${i}/value`, f.value]);
      });
    }
    for (const [pointer, text] of texts)
      for (const reference of referencesIn(text)) check(reference, pointer);
    if ((action.method === 'GET' || action.method === 'HEAD') && body.type !== 'none') {
      fail('#/body/type', `${action.method} requests carry no body; use request type none`);
    }
  }

  if (errors.length > 0) {
    throw new DoguError(
      'invalid_definition',
      errors.length === 1
        ? `${errors[0]!.pointer}: ${errors[0]!.detail}.`
        : `The action has ${errors.length} problems.`,
      { errors },
    );
  }
}

function unknownReference(
  reference: string,
  parameters: Set<string>,
  known: KnownNames,
  hasAuthAction: boolean,
) {
  if (parameters.has(reference) || currentUserReferences.includes(reference)) return undefined;
  const [scope, name, ...rest] = reference.split('.');
  if (scope === 'vars' && name && rest.length === 0) {
    return known.variables.has(name)
      ? undefined
      : `{{ ${reference} }}: no variable '${name}' is defined in any environment`;
  }
  if (scope === 'secrets' && name && rest.length === 0) {
    return known.secrets.has(name)
      ? undefined
      : `{{ ${reference} }}: no secret '${name}' is defined in any environment`;
  }
  if (reference === 'authToken') {
    return hasAuthAction
      ? undefined
      : '{{ authToken }} needs an HTTP data source with an authentication action';
  }
  return `{{ ${reference} }} is not a parameter, vars.*, secrets.* or currentUser.* of this action`;
}

function checkDefaults(action: ActionInput, fail: (pointer: string, detail: string) => void) {
  // Choices from master data are checked when the action runs; here only the rules of each kind.
  const parameters = action.parameters.map((p) => ('masterData' in p ? { ...p, masterData: undefined } : p));
  try {
    bindArguments(parameters, {}, { system: {} });
  } catch (error) {
    if (!(error instanceof DoguError) || !error.errors) throw error;
    for (const problem of error.errors) {
      const name = problem.pointer.replace('#/arguments/', '');
      const index = action.parameters.findIndex((p) => p.name === name);
      // A missing required value is fine at save time; a default that breaks the rules is not.
      if (problem.detail.endsWith('is required.')) continue;
      fail(`#/parameters/${index}/default`, problem.detail);
    }
  }
}
