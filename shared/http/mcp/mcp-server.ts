/**
 * Dogu's MCP server for one caller in one environment (docs/agents.md): each action the caller's agent
 * may see is a tool; review requests and the action catalogue are resources; a prompt explains a
 * Problem Details error. Built per request (stateless Streamable HTTP), so it holds nothing between calls.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { type AgentScope, agentAction, listAgentActions } from '../../domain/agents/agent-catalogue.ts';
import { inputSchemaOf } from '../../domain/agents/parameter-json-schema.ts';
import type { AuditLog } from '../../domain/audit.ts';
import { DoguError, notFound } from '../../domain/errors.ts';
import { executeAction } from '../../domain/execute-action.ts';
import type { ExecutionDeps } from '../../domain/execution-deps.ts';
import * as reviews from '../../domain/manage/reviews.ts';
import type { Action, Principal } from '../../domain/model.ts';
import type { ReviewRequest } from '../../domain/reviews.ts';
import { executionBody } from '../execution-response.ts';
import { problemPrompt } from './problem-prompt.ts';

export interface McpCall {
  principal: Principal;
  scope: AgentScope;
  /** The MCP client's self-declared name (client-session.ts). */
  client: string;
  /** Where the console is, for links a person opens (the review screen). */
  consoleOrigin: string;
  /** The project's audit log, where every run is listed by action (`execution.run`). */
  auditLog: Pick<AuditLog, 'list'>;
  /** Counts one tool call against the client's budget (decision 0236); throws 429 past it. */
  takeToolCall: () => Promise<void>;
  /** Called once per tool call, for the audit log. */
  audit: (entry: {
    actionId: string;
    outcome: 'succeeded' | 'failed' | 'refused';
    details: Record<string, unknown>;
  }) => Promise<void>;
}

const reviewUriPrefix = 'dogu://review-requests/';
const catalogueUri = 'dogu://actions';
const recentRuns = /^dogu:\/\/actions\/([a-z0-9][a-z0-9_-]{0,62})\/executions$/;
const shownRuns = 10;

export function doguMcpServer(deps: ExecutionDeps, call: McpCall): Server {
  const server = new Server(
    { name: 'dogu', version: '1.0.0' },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions:
        `Dogu actions of project '${call.scope.projectId}', environment '${call.scope.environmentId}'. ` +
        'Read-only tools answer at once; a data-changing tool usually answers "awaiting review": read its ' +
        'dogu://review-requests/{id} resource later for the outcome.',
    },
  );
  const { principal, scope } = call;

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const actions = await refusalsAsMcp(() => listAgentActions(deps.store, principal, scope));
    return { tools: actions.map(({ action, effect }) => toolOf(action, effect)) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const actionId = request.params.name;
    const args = request.params.arguments ?? {};
    // Over the limit is refused before anything is read or recorded: a runaway loop must not also
    // flood the audit log.
    await refusalsAsMcp(() => call.takeToolCall());
    try {
      const { action, effect, settings } = await agentAction(deps.store, principal, scope, actionId);
      const outcome = await executeAction(deps, {
        principal,
        ...scope,
        actionId: action.id,
        arguments: args,
        via: 'mcp',
        agent: { client: call.client, reviewChanges: !settings.changesWithoutReview },
      });
      if (outcome.kind === 'review_requested') {
        const review = outcome.review;
        await call.audit({
          actionId,
          outcome: 'succeeded',
          details: { via: 'mcp', client: call.client, reviewRequestId: review.id },
        });
        return awaitingReview(review, call, effect);
      }
      const body = executionBody(outcome.execution, outcome.results);
      const ok = outcome.execution.status === 'succeeded';
      await call.audit({
        actionId,
        outcome: ok ? 'succeeded' : 'failed',
        details: {
          via: 'mcp',
          client: call.client,
          executionId: body.id,
          status: body.status,
          actionVersion: body.actionVersion,
        },
      });
      const structured = { execution: body };
      return {
        content: [
          {
            type: 'text' as const,
            text: ok
              ? JSON.stringify(structured)
              : `The run failed (${outcome.execution.error?.code}): ${outcome.execution.error?.message}`,
          },
        ],
        structuredContent: structured,
        ...(ok ? {} : { isError: true }),
      };
    } catch (error) {
      if (error instanceof DoguError) {
        await call.audit({
          actionId,
          outcome: error.status === 401 || error.status === 403 ? 'refused' : 'failed',
          details: { via: 'mcp', client: call.client, status: error.status, code: error.code },
        });
      }
      throw asMcpError(error);
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      {
        uri: catalogueUri,
        name: 'actions',
        title: 'Action catalogue',
        description: 'The actions you may call here, with what they do to data.',
        mimeType: 'application/json',
      },
    ],
  }));

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: 'dogu://actions/{actionId}/executions',
        name: 'recent-executions',
        title: 'Last executions of an action',
        description: `The last ${shownRuns} runs of a tool's action in this environment: who, how, status, row counts.`,
        mimeType: 'application/json',
      },
      {
        uriTemplate: `${reviewUriPrefix}{reviewId}`,
        name: 'review-request',
        title: 'Review request',
        description: 'A data-changing call awaiting a person: its status, and the run once approved.',
        mimeType: 'application/json',
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    if (uri === catalogueUri) {
      const actions = await refusalsAsMcp(() => listAgentActions(deps.store, principal, scope));
      const catalogue = actions.map(({ action, effect }) => ({
        id: action.id,
        name: action.name,
        ...(action.description ? { description: action.description } : {}),
        effect,
        version: action.version,
      }));
      return {
        contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ actions: catalogue }) }],
      };
    }
    const runsOf = recentRuns.exec(uri)?.[1];
    if (runsOf) {
      const executions = await refusalsAsMcp(() => recentExecutions(deps, call, runsOf));
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ executions }) }] };
    }
    if (uri.startsWith(reviewUriPrefix)) {
      const reviewId = uri.slice(reviewUriPrefix.length);
      const outcome = await refusalsAsMcp(() => reviewOutcome(deps, principal, scope, reviewId));
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(outcome) }] };
    }
    throw new McpError(
      ErrorCode.InvalidParams,
      `No resource '${uri}': read ${catalogueUri} or ${reviewUriPrefix}{id}.`,
    );
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [problemPrompt.definition] }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    if (request.params.name !== problemPrompt.definition.name) {
      throw new McpError(ErrorCode.InvalidParams, `No prompt '${request.params.name}'.`);
    }
    return problemPrompt.messages(request.params.arguments ?? {});
  });
  return server;
}

function toolOf(action: Action, effect: 'reads' | 'changes') {
  const says = effect === 'reads' ? 'Reads data.' : 'Changes data: a person reviews the call before it runs.';
  return {
    name: action.id,
    title: action.name,
    description: [action.description, says].filter(Boolean).join(' '),
    inputSchema: inputSchemaOf(action.parameters),
    annotations: { readOnlyHint: effect === 'reads', destructiveHint: effect === 'changes' },
  };
}

function awaitingReview(review: ReviewRequest, call: McpCall, effect: string) {
  const { projectId, environmentId } = call.scope;
  const links = {
    console: `${call.consoleOrigin}/p/${projectId}/e/${environmentId}/reviews/${review.id}`,
    resource: `${reviewUriPrefix}${review.id}`,
  };
  const structured = {
    status: 'awaiting_review',
    effect,
    reviewRequest: {
      id: review.id,
      status: review.status,
      expiresAt: review.expiresAt,
      // What the write would do, rolled back (decision 0185): the agent can tell its person now.
      ...(review.preview ? { preview: review.preview } : {}),
    },
    links,
  };
  return {
    content: [
      {
        type: 'text' as const,
        text:
          `Awaiting review: this call changes data, so a person must approve it first (${links.console}). ` +
          `Read ${links.resource} to learn the outcome.`,
      },
      { type: 'resource_link' as const, uri: links.resource, name: `review request ${review.id}` },
    ],
    structuredContent: structured,
  };
}

async function reviewOutcome(deps: ExecutionDeps, principal: Principal, scope: AgentScope, reviewId: string) {
  const review = await reviews.getReview(deps, principal, scope.projectId, reviewId);
  if (review.environmentId !== scope.environmentId) throw notFound('Review request', reviewId);
  const execution = review.executionId ? await deps.executions.getExecution(review.executionId) : undefined;
  return {
    reviewRequest: {
      id: review.id,
      actionId: review.actionId,
      status: review.status,
      arguments: review.arguments,
      requestedAt: review.requestedAt,
      expiresAt: review.expiresAt,
      ...(review.decidedBy ? { decidedBy: review.decidedBy, decidedAt: review.decidedAt } : {}),
      ...(review.decisionComment ? { decisionComment: review.decisionComment } : {}),
      ...(review.executionError ? { executionError: review.executionError } : {}),
      ...(review.preview ? { preview: review.preview } : {}),
    },
    execution: execution ? executionBody(execution) : null,
  };
}

/**
 * The last runs of an action the agent may call here, newest first, without rows (they are not
 * stored). Found through the audit log, which lists every run by action, whatever started it.
 */
async function recentExecutions(deps: ExecutionDeps, call: McpCall, actionId: string) {
  await agentAction(deps.store, call.principal, call.scope, actionId);
  const { entries } = await call.auditLog.list({
    projectId: call.scope.projectId,
    event: 'execution.run',
    targetId: actionId,
    limit: 100,
  });
  const ids = entries
    .filter((e) => e.environmentId === call.scope.environmentId && typeof e.details?.executionId === 'string')
    .map((e) => e.details!.executionId as string);
  const found = await Promise.all(
    [...new Set(ids)].slice(0, shownRuns).map((id) => deps.executions.getExecution(id)),
  );
  return found
    .filter((e) => e !== undefined)
    .map((execution) => {
      const { arguments: _arguments, ...shown } = executionBody(execution);
      return shown;
    });
}

async function refusalsAsMcp<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asMcpError(error);
  }
}

/**
 * A refusal of Dogu (4xx Problem Details) as a JSON-RPC error the agent can read and act on: the
 * detail as the message, the problem itself (code, per-argument errors) as data. No stack, ever.
 */
function asMcpError(error: unknown): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof DoguError && error.status < 500) {
    const problem = {
      status: error.status,
      code: error.code,
      detail: error.message,
      ...(error.errors ? { errors: error.errors } : {}),
      // Facts such as `reason: not_published` and `latestVersion` help the agent say what to do.
      ...Object.fromEntries(Object.entries(error.extra ?? {}).filter(([key]) => key !== 'execution')),
    };
    // The request itself is refused (a right, the rate): InvalidRequest; otherwise its parameters.
    const code =
      error.status === 403 || error.status === 429 ? ErrorCode.InvalidRequest : ErrorCode.InvalidParams;
    return new McpError(code, error.message, problem);
  }
  return new McpError(ErrorCode.InternalError, 'The request could not be handled.');
}
