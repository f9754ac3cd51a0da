import { afterAll, describe, expect, it } from 'vitest';
import { createWorkerSandbox } from '../../shared/adapters/sandbox/worker-sandbox.ts';
import { DoguError } from '../../shared/domain/errors.ts';
import type { ScriptOutcome, ScriptRun } from '../../shared/domain/ports.ts';

const sandbox = createWorkerSandbox({ memoryLimitBytes: 32 * 1024 * 1024 });
afterAll(() => sandbox.close?.());

// A limit far above what these scripts need: on a loaded 2-core machine starting a worker and QuickJS
// took over 2 s, and every script then ended script_timeout. Tests of the limit set their own.
const run = (code: string, extra: Partial<ScriptRun> = {}) =>
  sandbox.run({ code, globals: { params: { n: 2 } }, timeLimitMs: 20_000, ...extra });
const failure = (outcome: ScriptOutcome) => {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  return outcome.error;
};

describe('the worker sandbox', () => {
  it('runs an async function body with its globals, captures console output', async () => {
    const outcome = await run(
      'console.log("n is", params.n, { a: [1] });\nawait null;\nreturn { twice: params.n * 2 };',
    );
    expect(outcome).toMatchObject({
      ok: true,
      value: { twice: 4 },
      logs: [{ level: 'log', message: 'n is 2 {"a":[1]}' }],
    });
  });

  it('reports syntax errors with line and column', async () => {
    expect(failure(await run('const a = 1;\nconst b = ;'))).toMatchObject({
      code: 'script_syntax_error',
      line: 2,
      column: 11,
    });
  });

  it('reports a thrown error with its message and the user code stack only', async () => {
    const error = failure(await run('function check() {\n  throw new Error("no customer");\n}\ncheck();'));
    expect(error).toMatchObject({ code: 'script_error', message: 'Error: no customer', line: 2 });
    expect(error.stack).toBe('    at check (script.js:2:18)\n    at <script> (script.js:4:6)');
  });

  it('refuses results that are not JSON', async () => {
    expect(failure(await run('return { f() {} }'))).toMatchObject({ code: 'script_result_not_json' });
    expect(failure(await run('return 1n'))).toMatchObject({ code: 'script_result_not_json' });
    expect(await run('return undefined')).toMatchObject({ ok: true, value: null });
  });

  describe('escape attempts fail', () => {
    it('has no file system, process, environment, require or network', async () => {
      const outcome = await run(`return {
        process: typeof process, require: typeof require, fetch: typeof fetch, module: typeof module,
        std: typeof std, os: typeof os, WebAssembly: typeof WebAssembly, XMLHttpRequest: typeof XMLHttpRequest,
        importScripts: typeof importScripts, Deno: typeof Deno, Bun: typeof Bun, setTimeout: typeof setTimeout,
      }`);
      expect(outcome).toMatchObject({ ok: true });
      expect(Object.values((outcome as { value: Record<string, string> }).value)).toEqual(
        Array(12).fill('undefined'),
      );
    });

    it('cannot read a file, the environment or start a child process', async () => {
      for (const code of [
        'return require("fs").readFileSync("/etc/passwd", "utf8")',
        'return process.env',
        'return require("child_process").execSync("id").toString()',
        'return (await import("node:fs")).readFileSync("/etc/passwd", "utf8")',
        'return this.constructor.constructor("return process")().env',
      ]) {
        const error = failure(await run(code));
        expect(error.code, code).toMatch(/script_error|script_syntax_error/);
        expect(error.message, code).not.toContain('root:');
      }
    });

    it('reaches only its own global object through constructor tricks', async () => {
      const outcome = await run(
        'const g = (function () {}).constructor("return this")();\nreturn [g === globalThis, typeof g.process, Object.getOwnPropertyNames(g).filter((n) => n.startsWith("__"))];',
      );
      expect(outcome).toMatchObject({ ok: true, value: [true, 'undefined', []] });
    });

    it('cannot pollute the host prototypes', async () => {
      await run('Object.prototype.polluted = "yes"; Array.prototype.map = null; JSON.parse = null; return 1');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(typeof [].map).toBe('function');
      const value = await run('return actions.run("x", JSON.parse(\'{"__proto__": {"polluted": true}}\'))', {
        runAction: async (_id, args) => ({
          args,
          polluted: ({} as Record<string, unknown>).polluted ?? null,
        }),
      });
      expect(value).toMatchObject({ ok: true, value: { polluted: null } });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('cuts a busy loop at the time limit and keeps working', async () => {
      // No clock: a loop the limit did not cut would never end (the test would time out).
      expect(failure(await run('for (;;) {}', { timeLimitMs: 500 }))).toMatchObject({
        code: 'script_timeout',
      });
      expect(await run('return 1')).toMatchObject({ ok: true, value: 1 });
    });

    it('cuts a loop that catches the interruption', async () => {
      const outcome = await run('for (;;) { try { for (;;) {} } catch {} }', { timeLimitMs: 500 });
      expect(failure(outcome).code).toBe('script_timeout');
    });

    it('stops allocating 2 GB at the memory limit and keeps working', async () => {
      const before = process.memoryUsage().rss;
      for (const code of [
        'const a = []; for (;;) a.push("x".repeat(1e6) + Math.random());',
        'const a = []; for (let i = 0; i < 2048; i++) a.push(new Uint8Array(1024 * 1024)); return a.length;',
        'const a = []; for (;;) a.push({ a: [1, 2, 3] });',
      ]) {
        // Far above what a quiet machine needs (well under a second): a loop the memory limit did not
        // stop ends at the time limit instead, with another code.
        const outcome = await run(code, { timeLimitMs: 60_000 });
        expect(failure(outcome).code, code).toBe('script_memory_limit');
      }
      expect(process.memoryUsage().rss - before).toBeLessThan(512 * 1024 * 1024);
      expect(await run('return "still here"')).toMatchObject({ ok: true, value: 'still here' });
    }, 240_000);
  });

  describe('actions.run', () => {
    it('calls the host with the action id and arguments and returns its JSON answer', async () => {
      const calls: unknown[] = [];
      const outcome = await run('const a = await actions.run("lookup", { id: 7 });\nreturn a[0].name;', {
        runAction: async (id, args) => {
          calls.push([id, args]);
          return [{ name: 'Ada' }];
        },
      });
      expect(outcome).toMatchObject({ ok: true, value: 'Ada' });
      expect(calls).toEqual([['lookup', { id: 7 }]]);
    });

    it('turns a refused call into an error the script can catch', async () => {
      const outcome = await run(
        'try { await actions.run("secret-op", {}); } catch (e) { return "caught: " + e.message; }',
        {
          runAction: async () => {
            throw new DoguError('forbidden', "Action 'secret-op' is restricted.");
          },
        },
      );
      expect(outcome).toMatchObject({ ok: true, value: "caught: Action 'secret-op' is restricted." });
    });

    it('is absent where the host offers no actions', async () => {
      expect(await run('return typeof actions')).toMatchObject({ ok: true, value: 'undefined' });
    });

    it('checks its arguments', async () => {
      const outcome = await run('await actions.run(42)', { runAction: async () => null });
      expect(failure(outcome).message).toContain('actions.run needs an action id');
    });
  });

  it('runs several scripts at once without one blocking another', async () => {
    // Two idle workers first: starting one took seconds on a loaded machine, which is not the point.
    await Promise.all([run('return 0'), run('return 0')]);
    const slow = run('for (;;) {}', { timeLimitMs: 5000 });
    const fast = run('return 2');
    // The quick script is answered while the busy one still spins (until its 5 s limit), however slow
    // the machine is: an order, not a duration.
    expect(await Promise.race([fast.then(() => 'fast'), slow.then(() => 'slow')])).toBe('fast');
    expect(await fast).toMatchObject({ ok: true, value: 2 });
    expect((await slow).ok).toBe(false);
  }, 30_000);
});
