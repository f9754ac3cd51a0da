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

/** Items of the embedded DynamoDB by type, and execution records (in SQLite, decision 0250). */
async function itemCounts(rt: LocalRuntime): Promise<Record<string, number>> {
  const { Items = [] } = await rt.storage.client.send(new ScanCommand({ TableName: rt.storage.tableName }));
  const counts: Record<string, number> = {};
  for (const item of Items as { type: string }[]) {
    // Audit entries grow with every login and call; this test is about definitions and executions.
    if (item.type !== 'audit') counts[item.type] = (counts[item.type] ?? 0) + 1;
  }
  const { n } = rt.storage.local.prepare('SELECT count(*) AS n FROM executions').get()!;
  if (Number(n) > 0) counts.execution = Number(n);
  return counts;
}

// Two starts of a runtime: over 60 s each when other test runs share the 2 cores.
describe('embedded runtime restart', () => {
  it('keeps executions, users and the demo, and does not seed twice', { timeout: 240_000 }, async () => {
    dir = await tempDir('restart');
    runtime = await startTestRuntime(dir.path);
    expect(runtime.seeded).toBe(true);
    const token = await loginToken(runtime);
    const first = await postJson(runtime, executionsPath('demo', 'development', 'list-orders'), {
      token,
      body: '{"arguments":{"status":"delivered","limit":3}}',
    });
    expect(first.status).toBe(200);
    // The execution's final record is stored before the answer.
    const { execution, ...definitions } = await itemCounts(runtime);
    expect(execution).toBe(1);
    // Seeded once: the demo's records (ten seed steps: ten markers; one cron job; the
    // administrator and the reviewer, each with an account and a membership; three views, the
    // operations dashboard included, each with its version record).
    expect(definitions).toMatchObject({
      project: 1,
      environment: 2,
      user: 2,
      userEmail: 2,
      account: 2,
      membership: 2,
      marker: 10,
      cronJob: 1,
      view: 3,
      viewVersion: 3,
    });
    expect(definitions.action).toBeGreaterThanOrEqual(9);
    await runtime.close();

    runtime = await startTestRuntime(dir.path);
    expect(runtime.seeded).toBe(false);
    expect(await itemCounts(runtime)).toEqual({ ...definitions, execution: 1 });

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

    // The demo gRPC service listens on a new port after the restart; its data source follows it.
    const grpcOrder = await postJson(runtime, executionsPath('demo', 'development', 'grpc-get-order'), {
      token,
      body: '{"arguments":{"order_id":"ord-1001"}}',
    });
    expect(grpcOrder.status, JSON.stringify(grpcOrder.body)).toBe(200);
    expect(grpcOrder.body.results[0].rows[0].id).toBe('ord-1001');
  });
});
