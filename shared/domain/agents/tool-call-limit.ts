/**
 * Tool calls per MCP client (decision 0236): an agent in a loop calls tools far faster than a person
 * clicks, so each client of each principal in a project has its own budget of calls a minute, beside
 * the per-principal limit of every route (decision 0053). Kept by the same limiter (memory locally, the
 * table on AWS), so it holds across Lambda instances. The client's name is self-declared: a client that
 * renames itself gets a new budget, but never more than its principal's route limit.
 */
import { DoguError } from '../errors.ts';
import type { ClientRateLimiter } from '../rate-limit.ts';

/** A chatty assistant makes a few calls a minute; a runaway loop makes hundreds. */
export const defaultMcpToolCallsPerMinute = 60;

export interface ToolCallLimit {
  limiter: ClientRateLimiter;
  perMinute: number;
}

/** Reads DOGU_MCP_TOOL_CALLS_PER_MINUTE: unset is the default, 0 is no limit. */
export function mcpToolCallsPerMinuteFromEnv(env: Record<string, string | undefined>): number {
  const text = env.DOGU_MCP_TOOL_CALLS_PER_MINUTE;
  if (text === undefined || text === '') return defaultMcpToolCallsPerMinute;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`DOGU_MCP_TOOL_CALLS_PER_MINUTE must be a whole number, not '${text}'.`);
  }
  return value;
}

/** The limiter's key: one budget per project, principal and client name. */
export function toolCallKey(projectId: string, principalId: string, client: string): string {
  return `mcp:${projectId}/${principalId}/${client}`;
}

/** Counts one tool call; throws 429 Problem Details (with the seconds to wait) past the limit. */
export async function takeToolCall(
  limit: ToolCallLimit | undefined,
  who: { projectId: string; principalId: string; client: string },
  nowMs: number,
): Promise<void> {
  if (!limit || limit.perMinute <= 0) return;
  const decision = await limit.limiter.take(toolCallKey(who.projectId, who.principalId, who.client), nowMs);
  if (decision.allowed) return;
  const seconds = decision.retryAfterSeconds;
  throw new DoguError(
    'too_many_requests',
    `Too many tool calls from MCP client '${who.client}': at most ${limit.perMinute} a minute in project '${who.projectId}'; try again in ${seconds} second(s).`,
    {
      headers: { 'retry-after': String(seconds) },
      extra: { retryAfterSeconds: seconds, client: who.client, limitPerMinute: limit.perMinute },
    },
  );
}
