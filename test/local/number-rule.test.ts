/**
 * The number rule (decision 0025): a number that would not be kept exactly is refused at the edge with
 * a 422 naming the field, and a record the embedded store refuses anyway is quarantined — it never
 * blocks the other records or the next start.
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

  it('a record the store refuses is quarantined once; the others and the next start go on', async () => {
    const store = runtime!.services.executions;
    const token = await loginToken(runtime!);
    await store.putExecution(poisoned('exe_poison_live'));
    const after = await run(runtime!, token, '{"arguments":{"min_total":7}}');
    expect(after.status).toBe(200);
    await runtime!.close();
    runtime = undefined;

    // A journal left by a crash with a poisoned line between two good ones.
    const good = (id: string) => JSON.stringify({ ...poisoned(id), arguments: { min_total: 1 } });
    await appendFile(
      join(dir.path, 'executions.journal'),
      `${good('exe_before')}\n${JSON.stringify(poisoned('exe_poison_left'))}\n${good('exe_after')}\n`,
    );
    runtime = await startTestRuntime(dir.path);
    for (const id of ['exe_before', 'exe_after', after.body.id]) {
      expect(await runtime.services.executions.getExecution(id), id).toBeDefined();
    }
    const quarantine = await readFile(join(dir.path, 'quarantine', 'executions.jsonl'), 'utf8');
    const lines = quarantine
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.record.id).sort()).toEqual(['exe_poison_left', 'exe_poison_live']);
    // The store names what it refuses: the record's field and why.
    expect(lines[0].reason).toMatch(
      /The value 1e\+308 at \/.*\/arguments\/min_total cannot be stored: it is beyond/,
    );
    // The runtime goes on storing after a quarantine.
    const next = await run(runtime, await loginToken(runtime), '{"arguments":{"min_total":3}}');
    expect(next.status).toBe(200);
  }, 120_000);
});
