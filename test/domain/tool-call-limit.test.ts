/**
 * Tool calls per MCP client (decision 0236): one budget per project, principal and client name in a
 * fixed minute, kept by either limiter — the DynamoDB one (on the embedded DynamoDB) as on AWS, the
 * in-memory one of the embedded runtime — and 429 Problem Details with the seconds to wait past it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from '../../local/embedded-dynamodb.ts';
import { DynamoDbRateLimiter } from '../../shared/adapters/rate-limit/dynamodb-rate-limiter.ts';
import { MemoryRateLimiter } from '../../shared/adapters/rate-limit/memory-rate-limiter.ts';
import {
  defaultMcpToolCallsPerMinute,
  mcpToolCallsPerMinuteFromEnv,
  takeToolCall,
  toolCallKey,
} from '../../shared/domain/agents/tool-call-limit.ts';
import { DoguError } from '../../shared/domain/errors.ts';
import type { ClientRateLimiter } from '../../shared/domain/rate-limit.ts';
import { tempDir } from '../support/runtime.ts';

let dynamo: EmbeddedDynamoDb;
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  dir = await tempDir('tool-calls');
  dynamo = await startEmbeddedDynamoDb(dir.path, 'dogu');
});
afterAll(async () => {
  await dynamo?.close();
  await dir?.remove();
});

const minute = Date.parse('2026-11-28T07:00:00Z');

const limiters: Record<string, (perMinute: number) => ClientRateLimiter> = {
  DynamoDbRateLimiter: (perMinute) => new DynamoDbRateLimiter(dynamo.client, 'dogu', perMinute),
  MemoryRateLimiter: (perMinute) => new MemoryRateLimiter(perMinute),
};

for (const [name, make] of Object.entries(limiters)) {
  describe(`takeToolCall with the ${name}`, () => {
    it('lets the limit through, then refuses with 429 naming the client, the limit and the seconds to wait', async () => {
      const who = { projectId: 'demo', principalId: `usr_${name}`, client: 'claude-code' };
      const limit = { limiter: make(3), perMinute: 3 };
      for (let i = 0; i < 3; i++) await takeToolCall(limit, who, minute + 1000);
      const refusal = await takeToolCall(limit, who, minute + 20_000).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(DoguError);
      const error = refusal as DoguError;
      expect(error.status).toBe(429);
      expect(error.code).toBe('too_many_requests');
      expect(error.extra).toEqual({ retryAfterSeconds: 40, client: 'claude-code', limitPerMinute: 3 });
      expect(error.headers).toEqual({ 'retry-after': '40' });
      expect(error.message).toBe(
        "Too many tool calls from MCP client 'claude-code': at most 3 a minute in project 'demo'; try again in 40 second(s).",
      );
    });

    it('counts each client name, principal and project apart, and starts again in the next minute', async () => {
      const who = { projectId: 'demo', principalId: `usr_apart_${name}`, client: 'cursor' };
      const limit = { limiter: make(1), perMinute: 1 };
      await takeToolCall(limit, who, minute);
      await takeToolCall(limit, { ...who, client: 'cursor-2' }, minute);
      await takeToolCall(limit, { ...who, principalId: `usr_other_${name}` }, minute);
      await takeToolCall(limit, { ...who, projectId: 'other' }, minute);
      await expect(takeToolCall(limit, who, minute + 59_000)).rejects.toThrow(/Too many tool calls/);
      await takeToolCall(limit, who, minute + 60_000);
    });
  });
}

describe('takeToolCall without a limit', () => {
  it('does nothing when absent or 0', async () => {
    const who = { projectId: 'demo', principalId: 'usr_none', client: 'x' };
    await takeToolCall(undefined, who, minute);
    const off = { limiter: new MemoryRateLimiter(0), perMinute: 0 };
    for (let i = 0; i < 5; i++) await takeToolCall(off, who, minute);
  });

  it('keys by project, principal and client', () => {
    expect(toolCallKey('demo', 'usr_1', 'claude-code')).toBe('mcp:demo/usr_1/claude-code');
  });
});

describe('mcpToolCallsPerMinuteFromEnv', () => {
  it('defaults to 60, takes a whole number, 0 turns it off, refuses anything else', () => {
    expect(mcpToolCallsPerMinuteFromEnv({})).toBe(defaultMcpToolCallsPerMinute);
    expect(defaultMcpToolCallsPerMinute).toBe(60);
    expect(mcpToolCallsPerMinuteFromEnv({ DOGU_MCP_TOOL_CALLS_PER_MINUTE: '10' })).toBe(10);
    expect(mcpToolCallsPerMinuteFromEnv({ DOGU_MCP_TOOL_CALLS_PER_MINUTE: '0' })).toBe(0);
    expect(() => mcpToolCallsPerMinuteFromEnv({ DOGU_MCP_TOOL_CALLS_PER_MINUTE: 'lots' })).toThrow(
      /DOGU_MCP_TOOL_CALLS_PER_MINUTE must be a whole number/,
    );
  });
});
