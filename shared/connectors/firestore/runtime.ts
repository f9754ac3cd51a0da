/** Runs a document-database action's script with `db`/`firestore` or `datastore` (docs/javascript.md). */
import { DoguError } from '../../domain/errors.ts';
import type { StatementResult } from '../../domain/model.ts';
import type { EngineRun } from '../../domain/ports.ts';
import { failedScriptResult, resultOfValue } from '../../domain/result-value.ts';
import type { ConnectorRuntime } from '../connector.ts';
import { GoogleCredentials } from '../google-auth/google-credentials.ts';
import { embedReferences, parametersOf } from '../javascript/script-inputs.ts';
import { datastoreOperations } from './datastore-api.ts';
import type { DocumentActionInput, FirestoreConnection } from './definition.ts';
import { firestoreOperations } from './firestore-api.ts';

export const datastoreScope = 'https://www.googleapis.com/auth/datastore';
/** Database operations one run may make (each is one request to Google). */
export const maxDatabaseCallsPerRun = 1000;

export function firestoreRuntime(): ConnectorRuntime {
  const credentials = new GoogleCredentials([datastoreScope]);
  /** The key's client (undefined without a key: the first call says so). */
  const clientOf = (connection: FirestoreConnection, fresh = false) => {
    if (!connection.serviceAccountKey) return undefined;
    const request = { connection: { serviceAccountKey: connection.serviceAccountKey }, cacheKey: '' };
    return fresh ? credentials.fresh(request) : credentials.client(request);
  };
  return {
    async run(run: EngineRun): Promise<StatementResult[]> {
      if (!run.sandbox) throw new DoguError('internal_error', 'This runtime cannot run scripts.');
      const connection = run.connection as FirestoreConnection;
      const action = run.action as unknown as DocumentActionInput;
      const context = { client: clientOf(connection), signal: run.signal, deadlineAt: run.deadlineAt };
      const mode = connection.mode ?? 'document';
      const operations: Record<string, (op: never) => Promise<unknown>> =
        mode === 'document'
          ? firestoreOperations(connection, context)
          : datastoreOperations(connection, context);
      let calls = 0;
      const outcome = await run.sandbox.run({
        code: embedReferences(action.code, run.values),
        globals: { params: parametersOf(run) },
        timeLimitMs: Math.max(1, run.deadlineAt - Date.now()),
        ...(run.runAction ? { runAction: run.runAction } : {}),
        database: {
          mode,
          async call(operation) {
            calls += 1;
            if (calls > maxDatabaseCallsPerRun)
              throw new DoguError(
                'argument_invalid',
                `A run may make at most ${maxDatabaseCallsPerRun} database calls.`,
              );
            const perform = Object.hasOwn(operations, String(operation.op))
              ? operations[String(operation.op)]
              : undefined;
            if (!perform)
              throw new DoguError(
                'argument_invalid',
                `Unknown database operation '${String(operation.op)}'.`,
              );
            return perform(operation as never);
          },
        },
      });
      if (!outcome.ok) return [failedScriptResult(action.name, outcome.error, outcome.logs)];
      return [resultOfValue(action.name, outcome.value, outcome.logs)];
    },
    async testConnection(check) {
      const connection = check.connection as FirestoreConnection;
      const context = {
        client: clientOf(connection, true),
        signal: check.signal,
        deadlineAt: Date.now() + 30_000,
      };
      // One small read proves the key, the project, the database and the reader role.
      if ((connection.mode ?? 'document') === 'document')
        await firestoreOperations(connection, context).runQuery({
          path: 'dogu-connection-test',
          where: [],
          orderBy: [],
          limit: 1,
        });
      else
        await datastoreOperations(connection, context).runQuery({
          kind: 'DoguConnectionTest',
          filters: [],
          order: [],
          limit: 1,
        });
    },
  };
}

/** The module's entry for the engines' loader (shared/connectors/runtimes.ts). */
export const createRuntime = () => firestoreRuntime();
