/** Runs a JavaScript action's script in the sandbox the run brings (docs/javascript.md). */
import { DoguError } from '../../domain/errors.ts';
import type { StatementResult } from '../../domain/model.ts';
import type { EngineRun } from '../../domain/ports.ts';
import { failedScriptResult, resultOfValue } from '../../domain/result-value.ts';
import type { ConnectorRuntime } from '../connector.ts';
import type { JavascriptActionInput } from './definition.ts';
import { currentUserOf, embedReferences, parametersOf } from './script-inputs.ts';

export function javascriptRuntime(): ConnectorRuntime {
  return {
    async run(run: EngineRun): Promise<StatementResult[]> {
      if (!run.sandbox) throw new DoguError('internal_error', 'This runtime cannot run scripts.');
      const action = run.action as unknown as JavascriptActionInput;
      const ownLimit = (run.connection.timeoutMs as number | undefined) ?? Number.POSITIVE_INFINITY;
      const timeLimitMs = Math.max(1, Math.min(ownLimit, run.deadlineAt - Date.now()));
      const outcome = await run.sandbox.run({
        code: embedReferences(action.code, run.values),
        globals: { params: parametersOf(run), currentUser: currentUserOf(run.values) },
        timeLimitMs,
        ...(run.runAction ? { runAction: run.runAction } : {}),
      });
      const title = action.name;
      if (!outcome.ok) {
        // Spec 7.3: the data source's own shorter time-out ended the script; say which limit.
        const error =
          outcome.error.code === 'script_timeout' && timeLimitMs === ownLimit
            ? {
                ...outcome.error,
                message: `The script reached the data source's time-out (timeoutMs ${ownLimit} ms).`,
              }
            : outcome.error;
        return [failedScriptResult(title, error, outcome.logs)];
      }
      return [resultOfValue(title, outcome.value, outcome.logs)];
    },
    async testConnection() {
      // Nothing to connect to: the sandbox is part of Dogu.
    },
  };
}

/** The module's entry for the engines' loader (shared/connectors/runtimes.ts). */
export const createRuntime = () => javascriptRuntime();
