/**
 * A sandbox worker thread (embedded runtime): runs one script at a time, each in a fresh QuickJS
 * instance, so the script's CPU time never blocks the server's event loop; the parent terminates the
 * thread at the wall-clock limit whatever the interpreter is doing. `actions.run` calls travel to the
 * parent as messages. The thread is reused for the next script only after a run that ended normally.
 */
import { parentPort } from 'node:worker_threads';
import { compiledQuickJs, type HostRequest, type QuickJsRequest, runInQuickJs } from './quickjs-run.ts';

export type FromWorker =
  | { type: 'call'; callId: number; request: HostRequest }
  | { type: 'done'; outcome: unknown };
export type ToWorker =
  | { type: 'run'; request: QuickJsRequest }
  | { type: 'answer'; callId: number; value?: unknown; error?: string };

const port = parentPort!;
const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let nextCallId = 0;
void compiledQuickJs();

port.on('message', (message: ToWorker) => {
  if (message.type === 'run') return void run(message.request);
  const call = waiting.get(message.callId);
  if (!call) return;
  waiting.delete(message.callId);
  if (message.error !== undefined) call.reject(new Error(message.error));
  else call.resolve(message.value);
});

async function run(request: QuickJsRequest) {
  const outcome = await runInQuickJs(
    request,
    (hostRequest) =>
      new Promise((resolve, reject) => {
        const callId = nextCallId++;
        waiting.set(callId, { resolve, reject });
        port.postMessage({ type: 'call', callId, request: hostRequest } satisfies FromWorker);
      }),
  );
  waiting.clear();
  port.postMessage({ type: 'done', outcome } satisfies FromWorker);
}
