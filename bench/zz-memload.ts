import { cleanUpEverything } from './lib/cleanup.ts';
import { standardPhases } from './lib/compare.ts';
import { DoguSession } from './lib/dogu.ts';
import { runLoad } from './lib/load.ts';
import { rssMbOf } from './lib/memory.ts';
import { createScratchDatabase } from './lib/postgres.ts';
import { startRuntimeProcess } from './lib/runtime-process.ts';

const db = await createScratchDatabase('perf_exec_memload');
const extra = process.argv[2] ? process.argv[2].split(' ') : [];
const rt = await startRuntimeProcess({ env: { DOGU_DEMO_DATABASE_URL: db.url }, nodeArgs: extra });
const metrics = async () => JSON.stringify(await (await fetch(`${rt.url}/local/v1/metrics`)).json());
console.log('idle', rssMbOf(rt.pid), await metrics());
const s = await DoguSession.login(rt.url, { ...standardPhases, throughputConcurrency: 100 });
const subj = s.executionSubject(
  { project: 'demo', environment: 'development', id: 'list-orders' },
  { status: 'shipped', limit: 5 },
  5,
);
const timer = setInterval(async () => console.log('load', rssMbOf(rt.pid), await metrics()), 5000);
const r = await runLoad(subj.request, { concurrency: 200, limit: { durationMs: 20_000 } });
clearInterval(timer);
console.log('end', r.requestsPerSecond, 'req/s', rssMbOf(rt.pid), await metrics());
await new Promise((res) => setTimeout(res, 3000));
console.log('after 3s', rssMbOf(rt.pid), await metrics());
if (extra.some((a) => a.startsWith('--heapsnapshot-signal'))) {
  process.kill(rt.pid, 'SIGUSR2');
  await new Promise((res) => setTimeout(res, 15000));
  console.log('after snapshot (full GC)', rssMbOf(rt.pid), await metrics());
}
s.close();
await rt.stop();
await db.drop();
await cleanUpEverything();
