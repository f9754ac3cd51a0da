/**
 * The embedded server gives each handler a budget above the longest run it serves (decision 0076),
 * as Lambda's function timeout does on AWS: middy ends a handler when the context says its time is
 * up, so a budget equal to the run limit turned every run that reached its limit into a 500.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createLocalServer, handlerBudgetMarginMs } from '../../local/http-server.ts';
import type { StaticConsole } from '../../local/static-console.ts';

const noConsole: StaticConsole = { serve: async () => false } as unknown as StaticConsole;

describe('the local handler budget', () => {
  it('sits above the run limit by the margin, counting down from the request', async () => {
    const seen: number[] = [];
    const handler = async (_event: unknown, context: Context) => {
      seen.push(context.getRemainingTimeInMillis());
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen.push(context.getRemainingTimeInMillis());
      return { statusCode: 200, body: '{}' };
    };
    const server = createLocalServer(
      new Map([['health', handler as never]]),
      Promise.resolve(),
      noConsole,
      () => ({}),
      { maxExecutionMs: 120_000 },
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`);
      expect(response.status).toBe(200);
      expect(seen[0]).toBeGreaterThan(120_000 + handlerBudgetMarginMs - 1_000);
      expect(seen[0]).toBeLessThanOrEqual(120_000 + handlerBudgetMarginMs);
      expect(seen[1]).toBeLessThan(seen[0]!);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
