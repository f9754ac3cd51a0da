/**
 * The per-client rate limiters (decision 0053): the DynamoDB one on the embedded DynamoDB (dynalite on
 * disk), the in-memory one of the embedded runtime; both count per client and fixed minute.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from '../../local/embedded-dynamodb.ts';
import {
  DynamoDbRateLimiter,
  ratePartitionPrefix,
  rateTtlAttribute,
} from '../../shared/adapters/rate-limit/dynamodb-rate-limiter.ts';
import { MemoryRateLimiter } from '../../shared/adapters/rate-limit/memory-rate-limiter.ts';
import { type ClientRateLimiter, rateLimitPerMinuteFromEnv } from '../../shared/domain/rate-limit.ts';
import { tempDir } from '../support/runtime.ts';

let dynamo: EmbeddedDynamoDb;
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  dir = await tempDir('rate');
  dynamo = await startEmbeddedDynamoDb(dir.path, 'dogu');
});
afterAll(async () => {
  await dynamo?.close();
  await dir?.remove();
});

/** 10:00:15 UTC on 2026-11-26, 45 s before the minute ends. */
const t0 = Date.parse('2026-11-26T10:00:15.000Z');

const limiters: Record<string, () => ClientRateLimiter> = {
  DynamoDbRateLimiter: () => new DynamoDbRateLimiter(dynamo.client, 'dogu', 3),
  MemoryRateLimiter: () => new MemoryRateLimiter(3),
};

for (const [name, make] of Object.entries(limiters)) {
  describe(name, () => {
    it('allows the limit within a minute, refuses the next with the seconds left, and counts clients apart', async () => {
      const limiter = make();
      const client = `usr_${name}`;
      for (let i = 0; i < 3; i++) expect((await limiter.take(client, t0 + i)).allowed).toBe(true);
      expect(await limiter.take(client, t0 + 10)).toEqual({ allowed: false, retryAfterSeconds: 45 });
      // Another caller is not affected by the first one's burst.
      expect((await limiter.take(`${client}-other`, t0 + 20)).allowed).toBe(true);
      // The next minute starts afresh.
      expect((await limiter.take(client, t0 + 45_000)).allowed).toBe(true);
    });
  });
}

describe('DynamoDbRateLimiter items', () => {
  it('keeps one item per client and minute under RATE#, with a TTL an hour after the minute', async () => {
    const limiter = new DynamoDbRateLimiter(dynamo.client, 'dogu', 100);
    await limiter.take('sa_reporting', t0);
    await limiter.take('sa_reporting', t0 + 1000);
    const { Item } = await dynamo.client.send(
      new GetCommand({
        TableName: 'dogu',
        Key: { pk: `${ratePartitionPrefix}sa_reporting`, sk: '#2026-11-26T10:00:00.000Z' },
      }),
    );
    expect(Item?.count).toBe(2);
    expect(Item?.[rateTtlAttribute]).toBe(Date.parse('2026-11-26T10:01:00.000Z') / 1000 + 3600);
  });
});

describe('rateLimitPerMinuteFromEnv', () => {
  it('reads a whole number, treats unset as no limit, and refuses anything else', () => {
    expect(rateLimitPerMinuteFromEnv({})).toBe(0);
    expect(rateLimitPerMinuteFromEnv({ DOGU_RATE_LIMIT_PER_MINUTE: '600' })).toBe(600);
    expect(() => rateLimitPerMinuteFromEnv({ DOGU_RATE_LIMIT_PER_MINUTE: 'lots' })).toThrow(
      "DOGU_RATE_LIMIT_PER_MINUTE must be a whole number, not 'lots'.",
    );
  });
});
