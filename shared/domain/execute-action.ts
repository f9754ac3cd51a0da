/**
 * executeAction: the one path every way of running an action goes through. Authorise, prepare the
 * run (run-preparation.ts: arguments, the variables and secrets it refers to, the connection),
 * record it running, run it within the time limit, limit the result, record it, and tell the
 * notification rules (execution-events.ts).
 */

import { effectOf } from './action-effect.ts';
import { actionForEnvironment, type RunContext, resolveExecutableAction } from './authorize.ts';
import { requireConfirmation } from './confirmation.ts';
import type { FileValue } from './definitions/parameter.ts';
import { refuseUnpublishedSecretReads } from './draft-secrets.ts';
import { endedRecord } from './ended-record.ts';
import { DoguError } from './errors.ts';
import type { ExecutionDeps } from './execution-deps.ts';
import { executionEvent, redact, reviewEvent, sensitiveValues } from './execution-events.ts';
import {
  enveloped,
  maxInlineResponseBytes,
  recordableArguments,
  storeLargeResults,
} from './execution-payloads.ts';
import { dataSourceFiles } from './files/versions.ts';
import { identityTokenSource } from './identity/own-idp.ts';
import { isLostGrant, markReconnectNeeded } from './manage/oauth-stored.ts';
import type { Action, DataSource, Execution, Principal, StatementResult } from './model.ts';
import { bindArguments } from './parameters.ts';
import type { ScriptLane, ScriptSandbox } from './ports.ts';
import { limitResults } from './result-limits.ts';
import { failedScriptResult, resultOfValue, valueOfResults } from './result-value.ts';
import { type ReviewPreview, takeReviewPreview } from './review-preview.ts';
import type { ReviewRequest } from './reviews.ts';
import { masterDataOf, type PreparedRun, prepareRun, type RunSubject } from './run-preparation.ts';

/** The JavaScript action run whose `actions.run` started this run (decision 0040). */
export interface ParentRun {
  executionId: string;
  actionId: string;
  /** How many runs deep the new run is (1: called by a run started directly). */
  depth: number;
  /** Shared by every run the top-level run started, directly or through nested ones. */
  calls: { count: number };
  deadlineAt: number;
  /** The top-level run's time limit, named when a nested run reaches it. */
  limitMs: number;
  /** The top-level run's execution id: its tree's scripts share lanes of the sandbox (decision 0077). */
  rootExecutionId: string;
}

export interface ExecuteActionRequest {
  principal: Principal;
  projectId: string;
  environmentId: string;
  actionId: string;
  arguments: Record<string, unknown>;
  via: Execution['via'];
  /** For a review-gated action: the requester's note to the approvers. */
  comment?: string;
  /** Set when an approved review request runs: its pinned version, and no new request. */
  review?: { id: string; version: number };
  context?: RunContext;
  /** Scheduled and queued runs choose their execution id before the run (recovery looks it up). */
  executionId?: string;
  /** An asynchronous job's longer limit (spec 8: 30 minutes); otherwise `deps.maxExecutionMs`. */
  maxExecutionMs?: number;
  origin?: Execution['origin'];
  /**
   * Keeps the rows before the execution is recorded as finished (a job's rows are read later): whoever
   * sees the final status finds the rows too.
   */
  keepResults?: (executionId: string, results: StatementResult[]) => Promise<void>;
  /** Set when a JavaScript action's `actions.run` asks for this run. */
  parent?: ParentRun;
  /** Estimate without running (kinds that declare `dryRun`; others: 422). Needs no review: nothing runs. */
  dryRun?: boolean;
  /**
   * Run in a transaction that is always rolled back and report per statement the rows affected
   * (kinds that declare `preview`; others: 422; decision 0185). Recorded as a preview, not a run;
   * needs neither review nor confirmation: nothing is committed.
   */
  preview?: boolean;
  /** Called from a view: kept on the execution (and a review request, for its approved run). */
  source?: Execution['source'];
  /**
   * Called by an AI agent over MCP: recorded on the run; with `reviewChanges`, a data-changing action
   * becomes a review request whatever its own review setting (docs/agents.md).
   */
  agent?: { client: string; reviewChanges: boolean };
  /** The person confirmed this run of a data-changing action (console and views ask; action-effect.ts). */
  confirmed?: boolean;
}

export interface ExecutionOutcome {
  kind: 'executed';
  execution: Execution;
  results: StatementResult[];
  /** The error without argument or secret values, for messages that leave the service (notifications). */
  shareableError?: { code: string; message: string };
}

export interface ReviewOutcome {
  kind: 'review_requested';
  review: ReviewRequest;
}

/** Runs the action, or — when it requires review — records a review request and returns that. */
export async function executeAction(
  deps: ExecutionDeps,
  request: ExecuteActionRequest,
): Promise<ExecutionOutcome | ReviewOutcome> {
  const { action, environment } = await resolveExecutableAction(deps.store, request.principal, request, {
    ...request.context,
    ...(request.review ? { version: request.review.version } : {}),
  });
  await refuseUnpublishedSecretReads(deps, action, environment.id);
  const nothingCommitted = request.dryRun === true || request.preview === true;
  if ((request.via === 'view' || request.via === 'console') && !nothingCommitted && !request.review) {
    requireConfirmation(action, environment.id, request.arguments, request.confirmed);
  }
  const dataSource = await deps.store.getDataSource(action.projectId, action.dataSourceId);
  if (request.dryRun && !(dataSource && deps.engines.supportsDryRun(dataSource.kind)))
    throw new DoguError(
      'argument_invalid',
      `A dry run is not available for ${dataSource ? `${dataSource.kind} data sources` : 'this action'}: only kinds that can estimate a query (BigQuery) offer it.`,
      { errors: [{ pointer: '#/dryRun', detail: 'not supported by this data source kind' }] },
    );
  if (request.preview && !(dataSource && deps.engines.supportsPreview(dataSource.kind)))
    throw new DoguError(
      'argument_invalid',
      `A preview is not available for ${dataSource ? `${dataSource.kind} data sources` : 'this action'}: only SQL kinds that can roll back a transaction (PostgreSQL, MySQL/MariaDB) offer it.`,
      { errors: [{ pointer: '#/preview', detail: 'not supported by this data source kind' }] },
    );
  const agentMustAsk = request.agent?.reviewChanges === true && effectOf(action) === 'changes';
  if ((action.review?.required || agentMustAsk) && !request.review && !nothingCommitted) {
    // The approver sees what the write would do (decision 0185): previewed now, as the requester.
    const preview =
      dataSource && deps.engines.supportsPreview(dataSource.kind) && effectOf(action) === 'changes'
        ? () => previewForReview(deps, request)
        : undefined;
    return requestReview(deps, request, action, environment.id, preview);
  }
  if (!dataSource?.environments[environment.id]) {
    throw new DoguError(
      'data_source_error',
      dataSource
        ? `Data source '${dataSource.id}' has no connection settings for environment '${environment.id}'.`
        : `The action's data source '${action.dataSourceId}' does not exist.`,
    );
  }

  const started = deps.clock.now();
  const executionId = request.executionId ?? deps.ids.next('exe');
  const maxExecutionMs = request.maxExecutionMs ?? deps.maxExecutionMs;
  const user = request.principal.kind === 'user' ? request.principal : undefined;
  const caller = { id: user?.id ?? '', name: user?.name ?? '', email: user?.email ?? '' };
  const deadlineAt = started.getTime() + maxExecutionMs;
  const nestedExecutionIds: string[] = [];
  const nesting: ParentRun = {
    executionId,
    actionId: action.id,
    depth: (request.parent?.depth ?? 0) + 1,
    calls: request.parent?.calls ?? { count: 0 },
    deadlineAt,
    limitMs: request.parent?.limitMs ?? maxExecutionMs,
    rootExecutionId: request.parent?.rootExecutionId ?? executionId,
  };
  // Every script of this run (the action, its transformer) runs in this run's lane of the sandbox.
  const runDeps = deps.sandbox
    ? {
        ...deps,
        sandbox: inLane(deps.sandbox, {
          tree: nesting.rootExecutionId,
          depth: nesting.depth,
          caller: request.principal.id,
        }),
      }
    : deps;
  const base: Omit<Execution, 'status' | 'statements'> = {
    id: executionId,
    projectId: action.projectId,
    environmentId: environment.id,
    actionId: action.id,
    actionVersion: action.version,
    principal: { kind: request.principal.kind, id: request.principal.id, email: request.principal.email },
    via: request.via,
    ...(request.agent ? { agent: { client: request.agent.client } } : {}),
    ...(request.origin ? { origin: request.origin } : {}),
    ...(request.review ? { reviewId: request.review.id } : {}),
    ...(request.source ? { source: request.source } : {}),
    ...(request.parent ? { parentExecutionId: request.parent.executionId } : {}),
    ...bridgeOf(dataSource, environment.id),
    ...(request.preview ? { preview: true as const } : {}),
    arguments: {},
    startedAt: started.toISOString(),
    deadlineAt: new Date(deadlineAt).toISOString(),
  };
  const input: RunInput = {
    action,
    dataSource,
    environmentId: environment.id,
    arguments: request.arguments,
    caller,
    system: { executionId, now: started.toISOString() },
    signal: AbortSignal.timeout(maxExecutionMs),
    deadlineAt,
    depth: nesting.depth,
    nested: { request, parent: nesting, executionIds: nestedExecutionIds },
    ...(request.dryRun ? { dryRun: true } : {}),
    ...(request.preview ? { preview: true } : {}),
  };
  const prepared = await prepareRun(runDeps, input);
  // Recorded as running before anything runs (decision 0056): a crash mid-run still leaves a record,
  // which the sweeper ends once its deadline has long passed. Large arguments go to the payload store.
  const recorded = await recordableArguments(deps.payloads, executionId, recordable(prepared.bound));
  base.arguments = recorded.arguments;
  if (recorded.payload) base.payloads = { arguments: recorded.payload };
  await deps.executions.putExecution({ ...base, status: 'running', statements: [] });
  const raw = await runPrepared(runDeps, input, prepared).catch(async (error: unknown) => {
    // An error the run did not turn into a failed result still ends the record it started.
    const at = deps.clock.now();
    await deps.executions.putExecution({
      ...base,
      status: error instanceof DoguError && error.code === 'execution_timeout' ? 'timed_out' : 'failed',
      statements: [],
      finishedAt: at.toISOString(),
      durationMs: at.getTime() - started.getTime(),
      error:
        error instanceof DoguError
          ? { code: error.code, message: error.message }
          : { code: 'internal_error', message: 'The run failed unexpectedly.' },
    });
    throw error;
  });
  const { bound, values } = prepared;
  // A preview shows what the statements did, not the transformer's view of it.
  let results = limitResults(request.preview ? raw : await transform(runDeps, action, raw, deadlineAt));
  results = namingTheLimit(results, deadlineAt - deps.clock.now().getTime(), nesting.limitMs);

  const execution: Execution = {
    ...base,
    ...endedRecord(results, started, deps.clock.now()),
    ...(nestedExecutionIds.length > 0 ? { nestedExecutionIds } : {}),
  };
  // A result too large to answer is kept in the payload store and answered by link; with no store,
  // it is cut to what an answer can carry.
  // If the store fails, the run still ends recorded: its result is cut instead.
  const storedResults = await storeLargeResults(deps.payloads, executionId, results, execution).catch(
    () => undefined,
  );
  if (storedResults) execution.payloads = { ...execution.payloads, results: storedResults };
  else results = limitResults(results, inlineResultBudget(execution));
  // Stored results are read through their link; the job's result parts hold only inline ones.
  if (!storedResults) await request.keepResults?.(executionId, results);
  await deps.executions.putExecution(execution);
  // A batch reports once, when it finishes (its rules are the batch's), not once per row.
  const shareableError = execution.error && {
    code: execution.error.code,
    message: redact(execution.error.message, sensitiveValues(bound, values)),
  };
  // Nor does a preview: nothing ran for good.
  if (request.via !== 'batch' && !request.preview && deps.notifications) {
    await deps.notifications.notify(executionEvent(action, execution, shareableError));
  }
  return { kind: 'executed', execution, results, ...(shareableError ? { shareableError } : {}) };
}

/** Checks the arguments now (so a bad request fails at once), then records the request for approval. */
async function requestReview(
  deps: ExecutionDeps,
  request: ExecuteActionRequest,
  action: Action,
  environmentId: string,
  preview?: () => Promise<ReviewPreview>,
): Promise<ReviewOutcome> {
  bindArguments(action.parameters, request.arguments, {
    system: {},
    masterData: await masterDataOf(deps, action),
  });
  const taken = preview ? await preview() : undefined;
  const now = deps.clock.now();
  const minutes = action.review?.expiresInMinutes ?? 24 * 60;
  const { kind, id, email, name } = request.principal;
  const review: ReviewRequest = {
    id: deps.ids.next('rev'),
    projectId: action.projectId,
    environmentId,
    actionId: action.id,
    actionVersion: action.version,
    arguments: request.arguments,
    requestedBy: { kind, id, email, name },
    requestedAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + minutes * 60_000).toISOString(),
    ...(request.comment ? { comment: request.comment } : {}),
    ...(request.source ? { source: request.source } : {}),
    ...(request.agent ? { agent: { client: request.agent.client } } : {}),
    ...(taken ? { preview: taken } : {}),
    status: 'pending',
  };
  await deps.reviews.createReview(review);
  await deps.notifications?.notify(reviewEvent(action, review, 'review_waiting', now.toISOString()));
  return { kind: 'review_requested', review };
}

/**
 * The request's preview (decision 0185): the same path with `preview`, so it is recorded as a
 * preview of the requester's. Also used on approval, with the request's pinned version.
 */
export function previewForReview(deps: ExecutionDeps, request: ExecuteActionRequest): Promise<ReviewPreview> {
  // Its own execution id: a batch row's planned id belongs to the run, and recovery reads a
  // record under it as the row's outcome (decision 0200).
  const { comment: _comment, confirmed: _confirmed, executionId: _executionId, ...rest } = request;
  return takeReviewPreview(
    () => deps.clock.now(),
    async () => (await executeAction(deps, { ...rest, preview: true })) as ExecutionOutcome,
  );
}

/**
 * The sandbox as one run sees it: each script it runs carries the run's lane. A nested run's sandbox
 * wraps its caller's, so a lane already set is the deeper run's and is kept: taking the caller's
 * lane instead put every level of a chain in one lane, and 16 chains on a pool of 4 waited out their
 * time limit (test/local/script-pool.test.ts).
 */
const inLane = (sandbox: ScriptSandbox, lane: ScriptLane): ScriptSandbox => ({
  run: (script) => sandbox.run({ lane, ...script }),
});

/** A run ended this close to its deadline was ended by it, whichever part of it noticed first. */
const deadlineToleranceMs = 100;

/**
 * Spec 8 and 7.3: a run ended by the time limit says so and names the limit, whatever the engine
 * said (a data source's own shorter time-out is named by its connector).
 */
function namingTheLimit(results: StatementResult[], leftMs: number, limitMs: number): StatementResult[] {
  if (leftMs > deadlineToleranceMs) return results;
  // A script that failed at its deadline failed of it (an `actions.run` it awaited ran out of time
  // and rejected just before the interpreter's own deadline).
  const endedByLimit = (code: string | undefined) => code === 'execution_timeout' || code === 'script_error';
  return results.map((result) =>
    result.status === 'failed' && result.error && endedByLimit(result.error.code)
      ? {
          ...result,
          error: {
            code: 'execution_timeout',
            message: `The run reached its time limit of ${formatLimit(limitMs)} and was stopped (${result.error.message})`,
          },
        }
      : result,
  );
}

/** 60000 → "60 s", 2500 → "2.5 s". */
export const formatLimit = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/** What is left of the answer's budget for rows once the rest of the execution is counted. */
function inlineResultBudget(execution: Execution): number {
  return Math.max(0, maxInlineResponseBytes - enveloped(JSON.stringify(execution)));
}

interface RunInput extends RunSubject {
  signal: AbortSignal;
  deadlineAt: number;
  /** Where the run stands in its tree: 1 for a run started directly (see `maxRunDepth`). */
  depth: number;
  /** What `actions.run` of a JavaScript action run here needs; absent for authentication actions. */
  nested?: NestedRuns;
  dryRun?: boolean;
  preview?: boolean;
}

/** The runs a JavaScript action starts with `actions.run`: whose request they repeat, under which run. */
interface NestedRuns {
  request: ExecuteActionRequest;
  parent: ParentRun;
  /** Filled as nested runs start; recorded on the parent's execution. */
  executionIds: string[];
}

/** The bridge a run goes through, recorded on its execution (audit and history). */
export function bridgeOf(dataSource: DataSource, environmentId: string): { bridgeId?: string } {
  const via = dataSource.environments[environmentId]?.via;
  return typeof via === 'string' && via !== '' ? { bridgeId: via } : {};
}

/**
 * Spec 8 and loops: how deep runs may nest, whichever way one run starts another (`actions.run` of a
 * JavaScript action, or a data source's authentication action): a run started directly is at depth
 * 1, and a run that would start one deeper than this is refused. An action that ends up calling
 * itself stops here.
 */
export const maxRunDepth = 4;
/** Spec 8 and loops: `actions.run` calls in one top-level run, nested ones included. */
export const maxCallsPerRun = 50;

/** The depth of a run that `parentDepth` starts, or the refusal (with the caller's error code) past the limit. */
function childDepth(
  parentDepth: number,
  actionId: string,
  code: 'argument_invalid' | 'data_source_error',
): number {
  const depth = parentDepth + 1;
  if (depth > maxRunDepth) {
    throw new DoguError(
      code,
      `Action '${actionId}' would run ${depth} levels deep; the limit is ${maxRunDepth} (does an action call itself?).`,
    );
  }
  return depth;
}

/** Hands the prepared run to its kind's engine; results and errors come back without secret values. */
async function runPrepared(
  deps: ExecutionDeps,
  input: RunInput,
  prepared: PreparedRun,
): Promise<StatementResult[]> {
  const { action, dataSource, environmentId, nested } = input;
  const { connection, bridge, redactor } = prepared;
  try {
    const results = await deps.engines.run({
      action,
      dataSource,
      environmentId,
      connection,
      key: `${dataSource.projectId}/${dataSource.id}/${environmentId}`,
      values: prepared.values,
      signal: input.signal,
      deadlineAt: input.deadlineAt,
      callAction: (actionId) => callAction(deps, input, actionId),
      ...(deps.idp
        ? { identityToken: identityTokenSource(deps.idp, dataSource.projectId, environmentId) }
        : {}),
      ...(nested ? { runAction: (actionId, args) => runNested(deps, nested, actionId, args) } : {}),
      ...(input.dryRun ? { dryRun: true } : {}),
      ...(input.preview ? { preview: true } : {}),
      ...(bridge ? { bridge } : {}),
      ...(deps.sandbox ? { sandbox: deps.sandbox } : {}),
      ...(deps.files && deps.engines.fileKind(dataSource.kind)
        ? { files: dataSourceFiles(deps.files, dataSource, environmentId) }
        : {}),
    });
    return redactor.results(results);
  } catch (error) {
    if (isLostGrant(error)) {
      await markReconnectNeeded(deps.store, dataSource, environmentId, deps.clock.now()).catch(() => {});
    }
    throw redactor.error(error);
  }
}

/**
 * `actions.run` from a JavaScript action: the whole execution path again, as the same principal,
 * with the calling action as the permission's caller, in the time the caller has left; recorded
 * under the caller's execution. Resolves to the run's value; a refused or failed run rejects.
 */
async function runNested(
  deps: ExecutionDeps,
  { request, parent, executionIds: nestedExecutionIds }: NestedRuns,
  actionId: string,
  args: Record<string, unknown>,
): Promise<unknown> {
  childDepth(parent.depth, actionId, 'argument_invalid');
  parent.calls.count += 1;
  if (parent.calls.count > maxCallsPerRun) {
    throw new DoguError(
      'argument_invalid',
      `actions.run('${actionId}') is call ${parent.calls.count} of this run; the limit is ${maxCallsPerRun}.`,
    );
  }
  const left = parent.deadlineAt - deps.clock.now().getTime();
  if (left <= 0) throw new DoguError('execution_timeout', `No time is left to run action '${actionId}'.`);
  const executionId = deps.ids.next('exe');
  nestedExecutionIds.push(executionId);
  const outcome = await executeAction(deps, {
    principal: request.principal,
    projectId: request.projectId,
    environmentId: request.environmentId,
    actionId,
    arguments: args,
    via: request.via,
    context: { callerActionId: parent.actionId },
    executionId,
    maxExecutionMs: left,
    parent,
  }).catch((error: unknown) => {
    nestedExecutionIds.pop();
    throw error;
  });
  if (outcome.kind === 'review_requested') {
    // Nothing ran: the script must not carry on as if it had (decision 0078). It may catch this.
    nestedExecutionIds.pop();
    throw new DoguError(
      'state_conflict',
      `Action '${actionId}' needs review before it runs: review request ${outcome.review.id} was filed (expires ${outcome.review.expiresAt}); once approved it runs on its own, not in this run.`,
    );
  }
  if (outcome.execution.error) {
    throw new DoguError(
      outcome.execution.status === 'timed_out' ? 'execution_timeout' : 'data_source_error',
      `Action '${actionId}' failed: ${outcome.execution.error.message}`,
    );
  }
  return valueOfResults(outcome.results);
}

/** Default time limit of a transformer without one of its own. */
const transformerTimeLimitMs = 5_000;

/** The action's transformer script, if any, turns the results into the value shown (spec 2.2). */
async function transform(
  deps: ExecutionDeps,
  action: Action,
  results: StatementResult[],
  deadlineAt: number,
): Promise<StatementResult[]> {
  const transformer = action.transformer;
  if (!transformer || results.some((r) => r.status === 'failed')) return results;
  const title = 'Transformer';
  if (!deps.sandbox) {
    return [
      ...results,
      failedScriptResult(title, { code: 'internal_error', message: 'This runtime cannot run scripts.' }, []),
    ];
  }
  const limit = transformer.timeLimitMs ?? transformerTimeLimitMs;
  const timeLimitMs = Math.max(1, Math.min(limit, deadlineAt - deps.clock.now().getTime()));
  const outcome = await deps.sandbox.run({
    code: transformer.script,
    globals: { result: valueOfResults(results) },
    timeLimitMs,
  });
  if (!outcome.ok) return [failedScriptResult(title, outcome.error, outcome.logs)];
  return [resultOfValue(results.length === 1 ? results[0]!.title : title, outcome.value, outcome.logs)];
}

/** Runs another action of the project (e.g. an authentication action) for the same caller, without arguments. */
async function callAction(
  deps: ExecutionDeps,
  input: RunInput,
  actionId: string,
): Promise<StatementResult[]> {
  const depth = childDepth(input.depth, actionId, 'data_source_error');
  const head = await deps.store.getAction(input.action.projectId, actionId);
  if (!head)
    throw new DoguError(
      'data_source_error',
      `The action '${actionId}' called by '${input.action.id}' does not exist.`,
    );
  // A called action follows the same version rules as one run directly (decision 0026).
  const called = await actionForEnvironment(deps.store, head, input.environmentId);
  await refuseUnpublishedSecretReads(deps, called, input.environmentId);
  const source = await deps.store.getDataSource(input.action.projectId, called.dataSourceId);
  if (!source?.environments[input.environmentId]) {
    throw new DoguError(
      'data_source_error',
      `The data source of action '${actionId}' has no settings for '${input.environmentId}'.`,
    );
  }
  // An authentication action serves the action that called it: it runs no actions of its own (and
  // would otherwise run them with its caller's identity as the permission's caller), and only the
  // caller is a preview.
  const { nested: _notForAuthActions, preview: _aPreviewOfTheCallerOnly, ...served } = input;
  const authInput: RunInput = { ...served, action: called, dataSource: source, arguments: {}, depth };
  return runPrepared(deps, authInput, await prepareRun(deps, authInput));
}

/** File contents are not kept in the history: their name, type and size are. */
export function recordable(bound: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(bound)) {
    const file = value as FileValue | null;
    record[name] =
      file && typeof file === 'object' && 'contentBase64' in file
        ? { name: file.name, contentType: file.contentType, size: file.size }
        : value;
  }
  return record;
}
