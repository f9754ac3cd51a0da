/**
 * The embedded runtime's ScriptSandbox: QuickJS in worker threads (a small pool), a fresh interpreter
 * instance per run, the thread terminated and replaced when a run passes its wall-clock limit.
 */
import { Worker } from 'node:worker_threads';
import { DoguError } from '../../domain/errors.ts';
import type { ScriptLane, ScriptOutcome, ScriptRun, ScriptSandbox } from '../../domain/ports.ts';
import { FairSlots } from './fair-slots.ts';
import { answerHostRequest, hostErrorMessage } from './host-requests.ts';
import { defaultScriptMemoryBytes, type QuickJsRequest } from './quickjs-run.ts';
import type { FromWorker, ToWorker } from './sandbox-worker.ts';

export interface WorkerSandboxOptions {
  /** Default 64 MiB. */
  memoryLimitBytes?: number;
  /**
   * Top-level runs at the same time; later ones wait, callers in turn, within their time limit.
   * Nested runs (`actions.run`) do not take from it: each level of each run tree has a lane of one
   * worker of its own, so a nested run never waits for a worker its ancestors hold. Default 4.
   */
  concurrency?: number;
}

/** The deepest `actions.run` nesting (shared/domain/execute-action.ts): a tree holds at most this many workers. */
const maxNestingDepth = 4;

export function createWorkerSandbox(options: WorkerSandboxOptions = {}): ScriptSandbox {
  const concurrency = options.concurrency ?? 4;
  const memoryLimitBytes = options.memoryLimitBytes ?? defaultScriptMemoryBytes;
  const idle: Worker[] = [];
  const live = new Set<Worker>();
  const shared = new FairSlots(concurrency);
  // One slot per (run tree, depth > 1): nested runs queue only behind their own siblings.
  const lanes = new Map<string, FairSlots>();

  const slotsFor = (lane: ScriptLane | undefined) => {
    if (!lane || lane.depth <= 1) return { slots: shared, caller: lane?.caller ?? '', forget: () => {} };
    const key = `${lane.tree}/${lane.depth}`;
    let slots = lanes.get(key);
    if (!slots) {
      slots = new FairSlots(1);
      lanes.set(key, slots);
    }
    const own = slots;
    return { slots: own, caller: lane.caller, forget: () => own.idle && lanes.delete(key) };
  };
  const take = () => {
    const worker = idle.pop() ?? spawn();
    worker.ref();
    live.add(worker);
    return worker;
  };
  const giveBack = (worker: Worker) => {
    worker.removeAllListeners('message');
    worker.removeAllListeners('error');
    worker.removeAllListeners('exit');
    // Enough threads stay idle for a full pool of nested chains; more are ended.
    if (idle.length >= concurrency * maxNestingDepth) return discard(worker);
    worker.unref();
    idle.push(worker);
  };
  const discard = (worker: Worker) => {
    live.delete(worker);
    void worker.terminate();
  };

  return {
    async run(script: ScriptRun): Promise<ScriptOutcome> {
      const started = Date.now();
      const { slots, caller, forget } = slotsFor(script.lane);
      // Waiting for a worker is part of the run's time: a run still waiting at its limit times out.
      if (!(await slots.acquire(caller, script.timeLimitMs))) {
        forget();
        return timedOut(script, started);
      }
      try {
        const left = script.timeLimitMs - (Date.now() - started);
        if (left <= 0) return timedOut(script, started);
        const request: QuickJsRequest = {
          code: script.code,
          globals: script.globals,
          timeLimitMs: left,
          memoryLimitBytes: script.memoryLimitBytes ?? memoryLimitBytes,
          canRunActions: script.runAction !== undefined,
          ...(script.database ? { database: script.database.mode } : {}),
        };
        return await runOn(take(), request, script, started, { giveBack, discard });
      } finally {
        slots.release();
        forget();
      }
    },
    async close() {
      const all = [...live, ...idle];
      live.clear();
      idle.length = 0;
      await Promise.all(all.map((worker) => worker.terminate()));
    },
  };
}

function spawn(): Worker {
  return new Worker(new URL('./sandbox-worker-entry.mjs', import.meta.url), {
    env: {},
    stdout: true,
    stderr: true,
    // The script's memory is the interpreter's WebAssembly memory (capped there); this caps the
    // thread's own JavaScript heap.
    resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 },
  });
}

function runOn(
  worker: Worker,
  request: QuickJsRequest,
  script: ScriptRun,
  started: number,
  pool: { giveBack(worker: Worker): void; discard(worker: Worker): void },
): Promise<ScriptOutcome> {
  return new Promise<ScriptOutcome>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: ScriptOutcome | Error, reusable: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (reusable) pool.giveBack(worker);
      else pool.discard(worker);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    // A little after the interpreter's own deadline: it normally stops the script itself and says so.
    const timer = setTimeout(() => finish(timedOut(script, started), false), request.timeLimitMs + 250);
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'done') {
        const outcome = message.outcome as ScriptOutcome;
        // After a memory accident the thread is replaced rather than trusted again.
        return finish(outcome, outcome.ok || outcome.error.code !== 'script_memory_limit');
      }
      const answer = (reply: { value?: unknown; error?: string }) => {
        if (!settled)
          worker.postMessage({ type: 'answer', callId: message.callId, ...reply } satisfies ToWorker);
      };
      answerHostRequest(script, message.request).then(
        (value) => answer({ value }),
        (error: unknown) => answer({ error: hostErrorMessage(error) }),
      );
    });
    worker.on('error', (error) =>
      finish(
        /memory/i.test(error.message)
          ? {
              ok: false,
              error: { code: 'script_memory_limit', message: 'The script used more memory than it may.' },
              logs: [],
              durationMs: Date.now() - started,
            }
          : new DoguError('internal_error', 'The script sandbox stopped unexpectedly.'),
        false,
      ),
    );
    worker.on('exit', () =>
      finish(new DoguError('internal_error', 'The script sandbox stopped unexpectedly.'), false),
    );
    worker.postMessage({ type: 'run', request } satisfies ToWorker);
  });
}

const timedOut = (script: ScriptRun, started: number): ScriptOutcome => ({
  ok: false,
  error: {
    code: 'script_timeout',
    message: `The script ran longer than its time limit of ${script.timeLimitMs} ms.`,
  },
  logs: [],
  durationMs: Date.now() - started,
});
