/** Answers a script's request with what the run offers (both sandboxes share it). */
import { DoguError } from '../../domain/errors.ts';
import type { ScriptRun } from '../../domain/ports.ts';
import type { HostRequest } from './quickjs-run.ts';

export function answerHostRequest(script: ScriptRun, request: HostRequest): Promise<unknown> {
  if (request.channel === 'action') {
    if (!script.runAction)
      return Promise.reject(new DoguError('bad_request', 'This script cannot run actions.'));
    return script.runAction(request.actionId, request.args);
  }
  if (!script.database)
    return Promise.reject(new DoguError('bad_request', 'This script has no database to talk to.'));
  return script.database.call(request.operation);
}

/** Only Dogu's own errors are written for the user; anything else might say more than it should. */
export const hostErrorMessage = (error: unknown) =>
  error instanceof DoguError ? error.message : 'The request of the script failed.';
