/**
 * The number rule (decision 0025): a number that would not be kept exactly is refused at the edge with
 * a 422 naming the field. The embedded store (SQLite since decision 0250) keeps such a record anyway,
 * and takes over the execution journal an older version's crash left.
 */
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import type { Execution } from '../../shared/domain/model.ts';
import { executionsPath, loginToken, postJson, startTestRuntime, tempDir } from '../support/runtime.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let runtime: LocalRuntime | undefined;
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

const findOrders = executionsPath('demo', 'development', 'find-orders');
const run = (rt: LocalRuntime, token: string, body: string) => postJson(rt, findOrders, { token, body });

const poisoned = (id: string): Execution => ({
  id,
  projectId: 'demo',
  environmentId: 'development',
  actionId: 'find-orders',
  actionVersion: 1,
  status: 'succeeded',
  principal: { kind: 'user', id: 'u', email: 'u@example.com' },
  via: 'public_api',
  // Written before the rule existed (or by a path that forgot it): the store cannot hold 1e308.
  arguments: { min_total: 1e308 },
  startedAt: '2026-11-22T00:00:00.000Z',
  statements: [],
});

describe('numbers beyond what is kept exactly', () => {
  it('are refused at the edge naming the field; the runtime restarts with every other execution', async () => {
    dir = await tempDir('numbers');
    runtime = await startTestRuntime(dir.path);
    const token = await loginToken(runtime);
    const kept = await run(runtime, token, '{"arguments":{"min_total":1}}');
    expect(kept.status).toBe(200);

    for (const literal of ['1e308', '12345678901234567', '-9007199254740993', '0.12345678901234567891']) {
      const refused = await run(runtime, token, `{"arguments":{"min_total":${literal}}}`);
      expect(refused.status, literal).toBe(422);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(refused.body.errors[0].pointer).toBe('#/arguments/min_total');
      expect(refused.body.detail).toContain(literal);
    }
    // The same rule for every body, e.g. a cron job's arguments and an action's default.
    const cron = await postJson(runtime, '/api/v1/projects/demo/environments/development/cron-jobs', {
      token,
      body: '{"actionId":"find-orders","schedule":"0 9 * * *","arguments":{"min_total":1e308}}',
    });
    expect(cron.status).toBe(422);
    expect(cron.body.errors[0].pointer).toBe('#/arguments/min_total');
    const env = '/api/v1/projects/demo/environments/development';
    const elsewhere: [string, string, string][] = [
      [findOrders, '{"arguments":{"min_total":12345678901234567},"async":true}', '#/arguments/min_total'],
      [
        `${env}/reservations`,
        '{"actionId":"find-orders","runAt":"2030-01-01T00:00:00Z","arguments":{"limit":1e308}}',
        '#/arguments/limit',
      ],
      [
        `${env}/actions/find-orders/batches`,
        '{"rows":[{"limit":1},{"limit":9007199254740993}]}',
        '#/rows/1/limit',
      ],
    ];
    for (const [path, body, pointer] of elsewhere) {
      const refused = await postJson(runtime, path, { token, body });
      expect(refused.status, path).toBe(422);
      expect(refused.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([pointer]);
    }
    const defaults = await fetch(`${runtime.url}/api/v1/projects/demo/actions/big-default`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"id":"big-default","name":"Big","kind":"sql","dataSourceId":"demo-postgres","parameters":[{"name":"n","kind":"number","default":1e308}],"statements":[{"title":"t","sql":"SELECT {{ n }}"}]}',
    });
    expect(defaults.status).toBe(422);
    expect(((await defaults.json()) as { errors: { pointer: string }[] }).errors[0]!.pointer).toBe(
      '#/parameters/0/default',
    );

    const later = await run(runtime, token, '{"arguments":{"min_total":5}}');
    expect(later.status).toBe(200);
    await runtime.close();
    runtime = undefined;

    runtime = await startTestRuntime(dir.path);
    for (const id of [kept.body.id, later.body.id]) {
      expect((await runtime.services.executions.getExecution(id))?.status).toBe('succeeded');
    }
  }, 120_000);

  it('the embedded store keeps what DynamoDB could not; a journal an older version left is taken over', async () => {
    // Since decision 0250 execution records are JSON in SQLite: 1e308 is kept as it is. On AWS the
    // rule at the edge above is what keeps such numbers out of DynamoDB.
    const store = runtime!.services.executions;
    await store.putExecution(poisoned('exe_big_live'));
    expect((await store.getExecution('exe_big_live'))?.arguments).toEqual({ min_total: 1e308 });
    await runtime!.close();
    runtime = undefined;

    // The execution journal of a version before 0250, left by a crash, with a torn last line.
    const good = (id: string) => JSON.stringify({ ...poisoned(id), arguments: { min_total: 1 } });
    await appendFile(
      join(dir.path, 'executions.journal'),
      `${good('exe_before')}\n${JSON.stringify(poisoned('exe_big_left'))}\n${good('exe_after')}\n{"id":"exe_torn","sta`,
    );
    runtime = await startTestRuntime(dir.path);
    for (const id of ['exe_before', 'exe_big_left', 'exe_after', 'exe_big_live']) {
      expect(await runtime.services.executions.getExecution(id), id).toBeDefined();
    }
    expect(await runtime.services.executions.getExecution('exe_torn')).toBeUndefined();
    await expect(readFile(join(dir.path, 'executions.journal'))).rejects.toThrow(/ENOENT/);
    const next = await run(runtime, await loginToken(runtime), '{"arguments":{"min_total":3}}');
    expect(next.status).toBe(200);
  }, 120_000);
});
