/**
 * Everything a run needs before its engine is called: the arguments bound to the parameters, the
 * values of the variables and secrets the action refers to (only those are read and decrypted), the
 * data source environment's connection and bridge, and what to redact from what comes back.
 */
import { bridgeRouteFor } from './bridges/bridge-route.ts';
import { DoguError } from './errors.ts';
import type { ExecutionDeps } from './execution-deps.ts';
import { openConnection } from './manage/data-sources.ts';
import type { Action, DataSource } from './model.ts';
import { bindArguments, type MasterData } from './parameters.ts';
import type { BridgeRoute } from './ports.ts';
import { SecretRedactor } from './secret-redaction.ts';
import { secretContext } from './secret-values.ts';

/** The action to run, where, with what, for whom. */
export interface RunSubject {
  action: Action;
  dataSource: DataSource;
  environmentId: string;
  arguments: Record<string, unknown>;
  caller: { id: string; name: string; email: string };
  system: Record<string, string>;
}

/** What a run needs once its arguments are bound: the values of its references and an open connection. */
export interface PreparedRun {
  bound: Record<string, unknown>;
  values: Record<string, unknown>;
  connection: Record<string, unknown>;
  bridge: BridgeRoute | undefined;
  /** The secrets this run holds: what the action refers to and the data source's secret fields. */
  redactor: SecretRedactor;
}

/** Binds the arguments and gathers what the action refers to. Also used for authentication actions. */
export async function prepareRun(deps: ExecutionDeps, input: RunSubject): Promise<PreparedRun> {
  const { action, dataSource, environmentId } = input;
  const currentUser = {
    'currentUser.id': input.caller.id,
    'currentUser.name': input.caller.name,
    'currentUser.email': input.caller.email,
  };
  const bound = bindArguments(action.parameters, input.arguments, {
    system: { ...currentUser, ...input.system },
    masterData: await masterDataOf(deps, action),
  });
  const values = {
    ...bound,
    ...currentUser,
    ...(await configurationValues(deps, action, dataSource, environmentId)),
  };
  const connection = await openConnection(deps, dataSource, environmentId);
  const bridge = await bridgeRouteFor(deps, dataSource, environmentId, connection);
  const redactor = new SecretRedactor([
    ...Object.entries(values).flatMap(([name, value]) => (name.startsWith('secrets.') ? [value] : [])),
    ...deps.engines.secretFields(dataSource.kind).map((field) => connection[field]),
  ]);
  return { bound, values, connection, bridge, redactor };
}

/** The master data lists the action's parameters take their choices from. */
export async function masterDataOf(deps: Pick<ExecutionDeps, 'store'>, action: Action): Promise<MasterData> {
  const ids = new Set(
    action.parameters.flatMap((p) => ('masterData' in p && p.masterData ? [p.masterData] : [])),
  );
  const lists: MasterData = {};
  for (const id of ids) {
    const list = await deps.store.getMasterData(action.projectId, id);
    if (!list)
      throw new DoguError('state_conflict', `The action's master data list '${id}' no longer exists.`);
    lists[id] = list.entries;
  }
  return lists;
}

/** Only the variables and secrets the action (and its data source's headers) refer to are read and decrypted. */
export async function configurationValues(
  deps: ExecutionDeps,
  action: Action,
  dataSource: DataSource,
  environmentId: string,
) {
  const references = deps.engines.references(action, dataSource, environmentId);
  const wanted = (scope: string) =>
    [...references].filter((r) => r.startsWith(`${scope}.`)).map((r) => r.slice(scope.length + 1));
  const [variableNames, secretNames] = [wanted('vars'), wanted('secrets')];
  const values: Record<string, unknown> = {};
  if (variableNames.length > 0) {
    const variables = await deps.store.listVariables(action.projectId, environmentId);
    for (const name of variableNames) {
      if (!(name in variables)) throw missing('variable', name, environmentId);
      values[`vars.${name}`] = variables[name];
    }
  }
  if (secretNames.length > 0) {
    const secrets = await deps.store.listSecrets(action.projectId, environmentId);
    for (const name of secretNames) {
      const secret = secrets[name];
      if (!secret) throw missing('secret', name, environmentId);
      values[`secrets.${name}`] = await deps.secrets.decrypt(
        secret.ciphertext,
        secretContext(action.projectId, environmentId, name),
      );
    }
  }
  return values;
}

const missing = (what: string, name: string, environmentId: string) =>
  new DoguError(
    'state_conflict',
    `The action uses ${what} '${name}', which environment '${environmentId}' does not define.`,
  );
