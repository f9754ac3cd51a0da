/** Data and demo survive a stop and start; the demo is seeded exactly once. */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { executionsPath, loginToken, postJson, startTestRuntime, tempDir } from '../support/runtime.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let runtime: LocalRuntime | undefined;
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

async function itemCounts(rt: LocalRuntime): Promise<Record<string, number>> {
  const client = (
    rt.services.store as unknown as {
      client: { send: (c: ScanCommand) => Promise<{ Items?: { type: string }[] }> };
    }
  ).client;
  const { Items = [] } = await client.send(new ScanCommand({ TableName: 'dogu' }));
  const counts: Record<string, number> = {};
  for (const item of Items) counts[item.type] = (counts[item.type] ?? 0) + 1;
  return counts;
}

describe('embedded runtime restart', () => {
  it('keeps executions, users and the demo, and does not seed twice', async () => {
    dir = await tempDir('restart');
    runtime = await startTestRuntime(dir.path);
    expect(runtime.seeded).toBe(true);
    const token = await loginToken(runtime);
    const first = await postJson(runtime, executionsPath('demo', 'development', 'list-orders'), {
      token,
      body: '{"arguments":{"status":"delivered","limit":3}}',
    });
    expect(first.status).toBe(200);
    const before = await itemCounts(runtime);
    expect(before).toMatchObject({
      project: 1,
      environment: 2,
      action: 1,
      dataSource: 1,
      user: 1,
      execution: 1,
    });
    await runtime.close();

    runtime = await startTestRuntime(dir.path);
    expect(runtime.seeded).toBe(false);
    expect(await itemCounts(runtime)).toEqual(before);

    // The token signed before the restart is still valid: the signing key persisted.
    const read = await fetch(
      `${runtime.url}/public/v1/projects/demo/environments/development/executions/${first.body.id}`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(read.status).toBe(200);
    expect(((await read.json()) as { arguments: unknown }).arguments).toEqual({
      status: 'delivered',
      limit: 3,
    });

    const again = await postJson(runtime, executionsPath('demo', 'development', 'list-orders'), {
      token,
      body: '{"arguments":{"status":"delivered","limit":3}}',
    });
    expect(again.body.results[0].rows).toEqual(first.body.results[0].rows);
  });
});
