/**
 * executeAction: the one path every way of running an action goes through.
 * Authorise, bind arguments, compile templates to placeholders, run each
 * statement in its own transaction within the time limit, record the outcome.
 */
import { resolveExecutableAction } from './authorize.ts';
import { DoguError } from './errors.ts';
import type { Execution, Principal, StatementResult } from './model.ts';
import { bindArguments } from './parameters.ts';
import type { Clock, ConnectorFactory, DefinitionReader, IdGenerator, Store } from './ports.ts';
import { compileSql, systemReferences } from './template.ts';

export interface ExecutionDeps {
  definitions: DefinitionReader;
  executions: Pick<Store, 'putExecution'>;
  connectors: ConnectorFactory;
  clock: Clock;
  ids: IdGenerator;
  /** Spec 8: a normal execution stops after one minute. */
  maxExecutionMs: number;
}

export interface ExecuteActionRequest {
  principal: Principal;
  projectId: string;
  environmentId: string;
  actionId: string;
  arguments: Record<string, unknown>;
  via: Execution['via'];
}

export interface ExecutionOutcome {
  execution: Execution;
  results: StatementResult[];
}

export async function executeAction(
  deps: ExecutionDeps,
  request: ExecuteActionRequest,
): Promise<ExecutionOutcome> {
  const { action, environment } = await resolveExecutableAction(deps.definitions, request.principal, request);
  const bound = bindArguments(action.parameters, request.arguments);

  const dataSource = await deps.definitions.getDataSource(action.projectId, action.dataSourceId);
  const connection = dataSource?.environments[environment.id];
  if (!dataSource || !connection) {
    throw new DoguError(
      'data_source_error',
      dataSource
        ? `Data source '${dataSource.id}' has no connection settings for environment '${environment.id}'.`
        : `The action's data source '${action.dataSourceId}' does not exist.`,
    );
  }

  const known = new Set([...action.parameters.map((p) => p.name), ...systemReferences]);
  const values: Record<string, unknown> = {
    ...bound,
    'currentUser.id': request.principal.kind === 'user' ? request.principal.id : '',
    'currentUser.name': request.principal.kind === 'user' ? request.principal.name : '',
    'currentUser.email': request.principal.kind === 'user' ? request.principal.email : '',
  };
  const compiled = action.statements.map((statement) => {
    const template = compileSql(statement.sql, known);
    return { title: statement.title, text: template.text, values: template.references.map((r) => values[r]) };
  });

  const started = deps.clock.now();
  const execution: Execution = {
    id: deps.ids.next('exe'),
    projectId: action.projectId,
    environmentId: environment.id,
    actionId: action.id,
    actionVersion: action.version,
    status: 'running',
    principal: { kind: request.principal.kind, id: request.principal.id, email: request.principal.email },
    via: request.via,
    arguments: bound,
    startedAt: started.toISOString(),
    statements: [],
  };

  const connector = deps.connectors.postgres(
    `${dataSource.projectId}/${dataSource.id}/${environment.id}`,
    connection,
  );
  const deadline = AbortSignal.timeout(deps.maxExecutionMs);
  const results: StatementResult[] = [];
  for (const statement of compiled) {
    try {
      const raw = await connector.run(statement, { signal: deadline });
      results.push({ title: statement.title, status: 'succeeded', ...raw, rowCount: raw.rows.length });
    } catch (error) {
      const failure =
        error instanceof DoguError ? error : new DoguError('internal_error', 'The statement failed.');
      results.push({
        title: statement.title,
        status: 'failed',
        columns: [],
        rows: [],
        rowCount: 0,
        messages: [],
        error: { code: failure.code, message: failure.message },
      });
      execution.status = failure.code === 'execution_timeout' ? 'timed_out' : 'failed';
      execution.error = { code: failure.code, message: `Statement '${statement.title}': ${failure.message}` };
      break;
    }
  }
  if (execution.status === 'running') execution.status = 'succeeded';

  const finished = deps.clock.now();
  execution.finishedAt = finished.toISOString();
  execution.durationMs = finished.getTime() - started.getTime();
  execution.statements = results.map((r) => ({
    title: r.title,
    status: r.status,
    rowCount: r.rowCount,
    messages: r.messages,
  }));
  await deps.executions.putExecution(execution);
  return { execution, results };
}
