/**
 * The AWS sandbox by replay: the function's own handler (run here) stops at each actions.run it has
 * no answer for, and the Lambda sandbox runs the action and invokes it again (decision 0039).
 */
import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/script-sandbox.ts';
import { createLambdaSandbox } from '../../shared/adapters/sandbox/lambda-sandbox.ts';
import type { ReplayRequest } from '../../shared/adapters/sandbox/replay.ts';
import { DoguError } from '../../shared/domain/errors.ts';

function sandboxCountingInvocations() {
  const invocations: ReplayRequest[] = [];
  const sandbox = createLambdaSandbox(async (request) => {
    // Through JSON, as Lambda carries it.
    invocations.push(JSON.parse(JSON.stringify(request)));
    return JSON.parse(JSON.stringify(await handler(JSON.parse(JSON.stringify(request)))));
  });
  return { sandbox, invocations };
}

describe('the sandbox function by replay', () => {
  it('answers each actions.run by invoking again with the answers so far', async () => {
    const { sandbox, invocations } = sandboxCountingInvocations();
    const ran: unknown[] = [];
    const outcome = await sandbox.run({
      code: 'console.log("start");\nconst a = await actions.run("a", { n: 1 });\nconst b = await actions.run("b", { n: a.n + 1 });\nreturn [a, b];',
      globals: {},
      timeLimitMs: 5000,
      runAction: async (id, args) => {
        ran.push([id, args]);
        return { n: (args.n as number) * 10 };
      },
    });
    expect(outcome).toMatchObject({ ok: true, value: [{ n: 10 }, { n: 110 }], logs: [{ message: 'start' }] });
    expect(ran).toEqual([
      ['a', { n: 1 }],
      ['b', { n: 11 }],
    ]);
    expect(invocations.map((i) => i.calls.length)).toEqual([0, 1, 2]);
  });

  it('passes a refused call to the script as an error', async () => {
    const { sandbox } = sandboxCountingInvocations();
    const outcome = await sandbox.run({
      code: 'try { await actions.run("x"); } catch (e) { return e.message; }',
      globals: {},
      timeLimitMs: 5000,
      runAction: async () => {
        throw new DoguError('forbidden', 'not allowed');
      },
    });
    expect(outcome).toMatchObject({ ok: true, value: 'not allowed' });
  });

  it('refuses a script that asks for another call on replay', async () => {
    const outcome = await handler({
      code: 'return await actions.run("b", {});',
      globals: {},
      timeLimitMs: 2000,
      memoryLimitBytes: 32 * 1024 * 1024,
      canRunActions: true,
      calls: [{ request: { channel: 'action', actionId: 'a', args: {} }, answer: { value: 1 } }],
    });
    expect(outcome).toMatchObject({ kind: 'finished', outcome: { ok: false } });
    expect(JSON.stringify(outcome)).toContain('asked for a different action on replay');
  });

  it('cuts a busy loop inside the function at the time limit', async () => {
    const { sandbox } = sandboxCountingInvocations();
    const outcome = await sandbox.run({ code: 'for (;;) {}', globals: {}, timeLimitMs: 300 });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'script_timeout' } });
  });

  it('fails the script clearly when the function cannot be invoked', async () => {
    const sandbox = createLambdaSandbox(async () => {
      throw new Error('Request must be smaller than 6291456 bytes for the InvokeFunction operation');
    });
    const outcome = await sandbox.run({ code: 'return 1', globals: {}, timeLimitMs: 1000 });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'script_error' } });
    expect(JSON.stringify(outcome)).not.toContain('6291456');
  });
});
