/**
 * The body and query of `POST …/actions/{actionId}/executions`, checked: every bad field is a 400
 * naming it, before anything is read or run.
 */
import { badRequest } from '../domain/errors.ts';
import type { HttpRequest } from './handler.ts';

export interface ExecutionRequestBody {
  arguments: Record<string, unknown>;
  /** Run as a job (spec 8: up to 30 minutes), answered at once. */
  async: boolean;
  /** A job's own time limit (`timeLimitSeconds`), with `async`. */
  timeLimitMs?: number;
  dryRun: boolean;
  preview: boolean;
  confirmed: boolean;
  /** `via: "console"`: a run from the console (it asks for confirmation of data-changing actions). */
  fromConsole: boolean;
  comment?: string;
  /** `source: {viewId}`: the view the run was started from (checked for visibility by the handler). */
  sourceViewId?: string;
  /** `Accept: text/csv`: one statement's rows as a CSV download. */
  csv?: { statementIndex: number; escapeFormulas: boolean };
}

const flag = (body: Record<string, unknown>, name: string): boolean => {
  const value = body[name];
  if (value !== undefined && typeof value !== 'boolean') {
    throw badRequest(`'${name}' must be true or false.`, [
      { pointer: `#/${name}`, detail: 'must be a boolean' },
    ]);
  }
  return value === true;
};

export function parseExecutionRequest(request: HttpRequest): ExecutionRequestBody {
  const wantsCsv = /\btext\/csv\b/i.test(request.event.headers.accept ?? '');
  const query = request.event.queryStringParameters ?? {};
  const statementIndex = Number(query.statement ?? 0);
  if (wantsCsv && (!Number.isInteger(statementIndex) || statementIndex < 0)) {
    throw badRequest("'statement' must be the index of a statement: 0, 1, …");
  }
  const body = request.jsonBody();
  const args = body.arguments ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw badRequest("'arguments' must be a JSON object mapping parameter names to values.", [
      { pointer: '#/arguments', detail: 'must be an object' },
    ]);
  }
  const async = flag(body, 'async');
  const dryRun = flag(body, 'dryRun');
  if (dryRun && async) {
    throw badRequest('A dry run answers at once: leave out async.', [
      { pointer: '#/async', detail: 'not allowed with dryRun' },
    ]);
  }
  const preview = flag(body, 'preview');
  if (preview && (async || dryRun)) {
    const other = async ? 'async' : 'dryRun';
    throw badRequest(`A preview answers at once and runs the statements: leave out ${other}.`, [
      { pointer: `#/${other}`, detail: 'not allowed with preview' },
    ]);
  }
  if (body.timeLimitSeconds !== undefined && (!async || !Number.isInteger(body.timeLimitSeconds))) {
    throw badRequest("'timeLimitSeconds' is a job's own limit: an integer, with async true.", [
      {
        pointer: '#/timeLimitSeconds',
        detail: 'must be an integer from 1 to 1800, with async true',
        ja: 'async を true にして、1 から 1800 までの整数（秒）で指定してください',
      },
    ]);
  }
  const confirmed = flag(body, 'confirm');
  if (body.via !== undefined && body.via !== 'console') {
    throw badRequest('\'via\' is "console" for runs from the console, or left out.', [
      { pointer: '#/via', detail: 'must be "console"' },
    ]);
  }
  const sourceViewId = viewIdOf(body.source);
  if (sourceViewId !== undefined && async) {
    throw badRequest('Runs from a view answer at once: leave out async.', [
      { pointer: '#/async', detail: 'not allowed with source' },
    ]);
  }
  return {
    arguments: args as Record<string, unknown>,
    async,
    ...(body.timeLimitSeconds !== undefined ? { timeLimitMs: (body.timeLimitSeconds as number) * 1000 } : {}),
    dryRun,
    preview,
    confirmed,
    fromConsole: body.via === 'console',
    ...(typeof body.comment === 'string' ? { comment: body.comment.slice(0, 2000) } : {}),
    ...(sourceViewId !== undefined ? { sourceViewId } : {}),
    ...(wantsCsv ? { csv: { statementIndex, escapeFormulas: query.escapeFormulas !== 'false' } } : {}),
  };
}

/** `source` is `{"viewId": "<view id>"}` or absent. */
function viewIdOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const viewId = (value as { viewId?: unknown } | null)?.viewId;
  if (
    typeof value !== 'object' ||
    value === null ||
    Object.keys(value).length !== 1 ||
    typeof viewId !== 'string' ||
    !/^[a-z0-9][a-z0-9_-]{0,62}$/.test(viewId)
  ) {
    throw badRequest('\'source\' must be {"viewId": "<view id>"}.', [
      { pointer: '#/source', detail: 'must be an object with only viewId, a view id' },
    ]);
  }
  return viewId;
}
