/**
 * JavaScript actions and transformers through the API of a real runtime: actions.run with the
 * caller's permissions, the "only from this JavaScript action" mode, depth and call limits, nested
 * runs recorded under their parent, bad scripts as clear failures, transformers on SQL actions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let database: TestDatabase;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
const base = '/api/v1/projects/demo';

const script = (id: string, code: string, extra: Record<string, unknown> = {}) =>
  api.put(`${base}/actions/${id}`, {
    id,
    name: id,
    kind: 'javascript',
    dataSourceId: 'scripts',
    code,
    ...extra,
  });

async function save(id: string, code: string, extra: Record<string, unknown> = {}) {
  const saved = await script(id, code, extra);
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
}

/** A failed run answers Problem Details that carry the recorded execution. */
async function failedRun(actionId: string, args: Record<string, unknown> = {}) {
  const answer = await api.execute(actionId, args);
  expect(answer.headers.get('content-type')).toContain('application/problem+json');
  return { status: answer.status, problem: answer.body, execution: answer.body.execution };
}

beforeAll(async () => {
  dir = await tempDir('javascript');
  database = await createTestDatabase();
  runtime = await startTestRuntime(dir.path, { demoDatabaseUrl: database.url });
  api = apiClient(runtime, await loginToken(runtime));
  const source = await api.put(`${base}/data-sources/scripts`, {
    id: 'scripts',
    name: 'Scripts',
    kind: 'javascript',
    environments: { development: {}, production: {} },
  });
  expect(source.status, JSON.stringify(source.body)).toBe(201);
  await save('double', 'console.log("doubling", params.n);\nreturn { doubled: params.n * 2 };', {
    parameters: [{ name: 'n', kind: 'number', label: 'N', required: true }],
  });
  await save(
    'chain',
    'const a = await actions.run("double", { n: {{ n }} });\nconst b = await actions.run("only-from-chain");\nreturn { a, b };',
    { parameters: [{ name: 'n', kind: 'number', label: 'N', required: true }] },
  );
  // After 'chain': the permission's holder must exist and be a JavaScript action.
  await save('only-from-chain', 'return "inner ran";', {
    permission: { mode: 'javascript_action', javascriptActionId: 'chain' },
  });
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await database?.drop();
});

describe('JavaScript actions', () => {
  it('runs a script with its parameters and shows its logs and value', async () => {
    const run = await api.execute('double', { n: 21 });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.status).toBe('succeeded');
    expect(run.body.results[0]).toMatchObject({
      value: { doubled: 42 },
      rows: [{ doubled: 42 }],
      logs: [{ level: 'log', message: 'doubling 21' }],
    });
  });

  it('runs other actions with actions.run and records them under the parent execution', async () => {
    const run = await api.execute('chain', { n: 5 });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.results[0].value).toEqual({ a: { doubled: 10 }, b: 'inner ran' });
    const parent = await api.get(
      `/public/v1/projects/demo/environments/development/executions/${run.body.id}`,
    );
    expect(parent.body.nestedExecutionIds).toHaveLength(2);
    for (const [i, actionId] of ['double', 'only-from-chain'].entries()) {
      const child = await api.get(
        `/public/v1/projects/demo/environments/development/executions/${parent.body.nestedExecutionIds[i]}`,
      );
      expect(child.status).toBe(200);
      expect(child.body).toMatchObject({ actionId, parentExecutionId: run.body.id, status: 'succeeded' });
      expect(child.body.executedBy.id).toBe(run.body.executedBy.id);
    }
  });

  it('runs an action restricted to a JavaScript action only from that action', async () => {
    const direct = await api.execute('only-from-chain', {});
    expect(direct.status).toBe(403);
    expect(direct.body.detail ?? direct.body.title).toBeDefined();
    await save('impostor', 'return await actions.run("only-from-chain");');
    const other = await failedRun('impostor');
    expect(other.status).toBe(422);
    expect(other.execution.status).toBe('failed');
    expect(other.problem.code).toBe('script_error');
    expect(other.execution.error.message).toContain("can only be run from the JavaScript action 'chain'");
  });

  it('names an unknown action and lets the script catch it', async () => {
    await save('unknown', 'try { await actions.run("no-such-action"); } catch (e) { return e.message; }');
    const run = await api.execute('unknown', {});
    expect(run.body.results[0].value).toMatch(/no-such-action/);
  });

  it('stops recursion at the depth limit and loops at the call limit', async () => {
    await save('recurse', 'return await actions.run("recurse");');
    const deep = await failedRun('recurse');
    expect(deep.status).toBe(422);
    expect(deep.execution.error.message).toContain('the limit is 4');
    expect(deep.execution.nestedExecutionIds).toHaveLength(1);
    await save(
      'many',
      'for (let i = 0; i < 100; i++) await actions.run("double", { n: i });\nreturn "done";',
    );
    const many = await failedRun('many');
    expect(many.execution.error.message).toContain('the limit is 50');
    expect(many.execution.nestedExecutionIds).toHaveLength(50);
  }, 60_000);

  it('reports bad scripts as failed results and keeps serving', async () => {
    await save('syntax', 'const a = 1;\nconst b = ;');
    const syntax = await failedRun('syntax');
    expect(syntax.status).toBe(422);
    expect(syntax.problem.code).toBe('script_error');
    expect(syntax.execution.error.message).toMatch(/^scripts|Syntax error: .*\(line 2, column 11\)$/);
    expect(syntax.execution.error.message).toContain('(line 2, column 11)');
    await save('throws', 'function f() {\n  throw new Error("customer missing");\n}\nf();');
    const thrown = await failedRun('throws');
    expect(thrown.execution.error.message).toContain('Error: customer missing (line 2, column');
    expect(thrown.execution.results[0].messages[0]).toBe(
      '    at f (script.js:2:18)\n    at <script> (script.js:4:2)',
    );
    expect(JSON.stringify(thrown.problem)).not.toMatch(/quickjs|node_modules|prelude/);
    await save('hog', 'const a = []; for (;;) a.push("x".repeat(1e6) + Math.random());');
    const hog = await failedRun('hog');
    expect(hog.execution.error.message).toContain('Memory limit');
    await save('loop', 'for (;;) {}', {});
    await api.put(`${base}/data-sources/scripts`, {
      id: 'scripts',
      name: 'Scripts',
      kind: 'javascript',
      environments: { development: { timeoutMs: 500 }, production: {} },
    });
    const loop = await failedRun('loop');
    expect(loop.status).toBe(504);
    expect(loop.execution.status).toBe('timed_out');
    await save('fn', 'return () => 1;');
    const fn = await failedRun('fn');
    expect(fn.execution.error.message).toContain('Result not JSON');
    expect((await api.execute('double', { n: 1 })).body.status).toBe('succeeded');
  }, 60_000);

  it('records a review request for a review-gated action and fails the script unless it catches that', async () => {
    await save('gated', 'return "gated ran";', { review: { required: true } });
    await save('calls-gated', 'const r = await actions.run("gated");\nreturn { ran: r };');
    const run = await failedRun('calls-gated');
    expect(run.status).toBe(422);
    expect(run.problem.code).toBe('script_error');
    const id = /review request (rev_[\w-]+) was filed/.exec(run.problem.detail)?.[1];
    expect(id, run.problem.detail).toBeDefined();
    const review = await api.get(`${base}/review-requests/${id}`);
    expect(review.body).toMatchObject({ actionId: 'gated', status: 'pending' });
    expect(run.execution.status).toBe('failed');
    expect(run.execution.nestedExecutionIds).toBeUndefined();

    await save(
      'catches-gated',
      'try { await actions.run("gated"); return "ran"; } catch (e) { return "waiting: " + e.message; }',
    );
    const caught = await api.execute('catches-gated', {});
    expect(caught.status, JSON.stringify(caught.body)).toBe(200);
    expect(caught.body.results[0].value).toMatch(
      /^waiting: Action 'gated' needs review before it runs: review request rev_/,
    );
  });

  it('never shows a secret the script logs or throws', async () => {
    const canary = 'sk-live-canary-6d1f0c';
    const put = await api.put(`${base}/environments/development/secrets/script_token`, { value: canary });
    expect(put.status).toBe(201);
    await save(
      'leaky',
      'console.log("token", {{ secrets.script_token }});\nthrow new Error("bad " + {{ secrets.script_token }});',
    );
    const run = await failedRun('leaky');
    const text = JSON.stringify(run.problem);
    expect(text).not.toContain(canary);
    expect(run.execution.results[0].logs[0].message).toBe('token [secret]');
  });

  it('keeps answering other requests while a script spins', async () => {
    await save('spin', 'for (;;) {}');
    await api.put(`${base}/data-sources/scripts`, {
      id: 'scripts',
      name: 'Scripts',
      kind: 'javascript',
      environments: { development: { timeoutMs: 10_000 }, production: {} },
    });
    const spinning = failedRun('spin');
    // Once the spin is recorded running its script is about to spin: then ask for something else.
    const deadline = Date.now() + 20_000;
    while (
      !(await runtime.services.executions.listOverdueExecutions('9999')).some((e) => e.actionId === 'spin')
    ) {
      if (Date.now() > deadline) throw new Error('the spinning run never started');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const other = api.execute('double', { n: 2 });
    // Answered while the spin still runs (it ends only at its 10 s limit), however slow the machine.
    expect(await Promise.race([other.then(() => 'other'), spinning.then(() => 'spin')])).toBe('other');
    expect((await other).body.results[0].value).toEqual({ doubled: 4 });
    expect((await spinning).execution.status).toBe('timed_out');
  }, 60_000);

  it('refuses a script that refers to an unknown parameter when saved', async () => {
    const saved = await script('bad-ref', 'return {{ nobody }};');
    expect(saved.status).toBe(422);
    expect(JSON.stringify(saved.body)).toContain('nobody');
  });
});

describe('transformers', () => {
  it('reshapes a SQL result in the sandbox', async () => {
    const saved = await api.put(`${base}/actions/count-orders`, {
      id: 'count-orders',
      name: 'Count orders',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      statements: [{ title: 'Orders', sql: 'SELECT count(*)::int AS n FROM orders' }],
      transformer: {
        script:
          'console.log("rows", result.length);\nreturn { orders: result[0].n, label: "n=" + result[0].n };',
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const run = await api.execute('count-orders', {});
    expect(run.body.status, JSON.stringify(run.body)).toBe('succeeded');
    const result = run.body.results[0];
    expect(result.value.label).toBe(`n=${result.value.orders}`);
    expect(result.logs).toEqual([{ level: 'log', message: 'rows 1' }]);
  });

  it('gives a transformer of several statements their titles and values', async () => {
    const saved = await api.put(`${base}/actions/two-counts`, {
      id: 'two-counts',
      name: 'Two counts',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      statements: [
        { title: 'One', sql: 'SELECT 1 AS n' },
        { title: 'Two', sql: 'SELECT 2 AS n UNION ALL SELECT 3' },
      ],
      transformer: { script: 'return result.map((r) => ({ title: r.title, rows: r.value.length }));' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const run = await api.execute('two-counts', {});
    expect(run.body.results).toHaveLength(1);
    expect(run.body.results[0]).toMatchObject({
      title: 'Transformer',
      rows: [
        { title: 'One', rows: 1 },
        { title: 'Two', rows: 2 },
      ],
    });
  });

  it('fails the run when the transformer throws or runs past its own limit', async () => {
    const saved = await api.put(`${base}/actions/slow-transform`, {
      id: 'slow-transform',
      name: 'Slow transform',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      statements: [{ title: 'One', sql: 'SELECT 1 AS one' }],
      transformer: { script: 'for (;;) {}', timeLimitMs: 300 },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const run = await failedRun('slow-transform');
    expect(run.status).toBe(504);
    expect(run.execution.status).toBe('timed_out');
    expect(run.execution.results[0].rows).toEqual([]);
  });
});
