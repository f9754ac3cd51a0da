/**
 * Checks an action definition before it is saved, so that what runs later can
 * only fail on its arguments or the data source, never on its own definition.
 */
import type { ActionInput } from './definitions/action.ts';
import { DoguError, type FieldError } from './errors.ts';
import type { DataSource } from './model.ts';
import { bindArguments } from './parameters.ts';
import type { ActionEngines } from './ports.ts';
import { textPatternProblem } from './text-pattern.ts';

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
  engines: ActionEngines,
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
  const actionKind = engines.actionKindOf(dataSource.kind);
  if (actionKind !== action.kind)
    fail(
      '#/kind',
      `a ${action.kind} action cannot run on the ${dataSource.kind} data source '${dataSource.id}'${actionKind ? `, which runs ${actionKind} actions` : ''}`,
    );

  const names = new Set<string>();
  action.parameters.forEach((parameter, i) => {
    if (names.has(parameter.name))
      fail(`#/parameters/${i}/name`, `'${parameter.name}' is used by two parameters`);
    names.add(parameter.name);
    if ('masterData' in parameter && parameter.masterData && !known.masterData.has(parameter.masterData)) {
      fail(`#/parameters/${i}/masterData`, `no master data list '${parameter.masterData}' in this project`);
    }
    if (parameter.kind === 'text' && parameter.pattern !== undefined) {
      const problem = textPatternProblem(parameter.pattern);
      if (problem) fail(`#/parameters/${i}/pattern`, problem);
    }
  });
  checkDefaults(action, fail);

  const check = (reference: string, pointer: string) => {
    const problem = unknownReference(reference, names, known, !!dataSource.authAction);
    if (problem) fail(pointer, problem);
  };
  // The kind's own rules (statements, request shape) and where its references stand.
  if (actionKind === action.kind) engines.validate(action, dataSource, { fail, check });

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
    return hasAuthAction ? undefined : '{{ authToken }} needs a data source with an authentication action';
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
