/**
 * A closed loop of N clients in a process of its own (`node --import tsx bench/lib/closed-loop-process.ts`),
 * so a bench can load a runtime that lives in the bench's process without charging the clients' CPU to
 * that process's event loop. Reads BENCH_LOAD (JSON: url, path, authorization, body, concurrency,
 * expectedRows); runs until SIGTERM or stdin closes, then prints its LoadResult as JSON on stdout.
 */

import { expectResultRows } from './dogu.ts';
import { HttpClient } from './http-client.ts';
import { runLoad } from './load.ts';

interface LoadPlan {
  url: string;
  path: string;
  authorization: string;
  body: unknown;
  concurrency: number;
  expectedRows: number;
}

const plan = JSON.parse(process.env.BENCH_LOAD ?? '{}') as LoadPlan;
const client = new HttpClient(plan.url, { maxSockets: plan.concurrency * 2, timeoutMs: 30_000 });
const request = client.prepare('POST', plan.path, {
  headers: { authorization: plan.authorization },
  json: plan.body,
});
let stopping = false;
const stop = () => {
  stopping = true;
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop).resume();

const result = await runLoad(
  async () => expectResultRows(await client.sendExpectingOk(request), plan.expectedRows),
  { concurrency: plan.concurrency, limit: { stop: () => stopping } },
);
client.close();
process.stdout.write(JSON.stringify(result));
