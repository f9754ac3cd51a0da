/**
 * Bench `http`: what does calling an HTTP API through a Dogu HTTP action cost
 * compared with calling it yourself? The action `bench-http-items`
 * (GET /items/{{ id }}?limit={{ limit }}) through the public API of the
 * embedded runtime (its own process) against the same GET sent directly,
 * both to one local JSON server (its own process too), in one run so both
 * sides see the same machine state. Same phases and checks as bench
 * `execution`: latency at concurrency 1, throughput at 32, added p50 and
 * the throughput ratio.
 *
 * The direct side uses bench/lib/http-client.ts (node:http, keep-alive), the
 * client every bench uses: Dogu's own HTTP client is node:http with
 * keep-alive as well, so both sides pay the same HTTP stack and the gap is
 * Dogu's (public API, authentication, templating, execution record, result
 * shaping), not a difference between fetch and node:http.
 *
 * The data source and the action are created through the management API
 * (PUT /api/v1/projects/demo/...). This file is also the JSON server: run
 * with BENCH_HTTP_ROLE=json-server it serves GET /items/:id and /healthz
 * (started by startServerProcess, so it never shares the bench's event loop).
 */
import http from 'node:http';
import { HttpClient } from './lib/http-client.ts';
import { type LoadLimit, type RequestFn, runLoad } from './lib/load.ts';
import { progress } from './lib/progress.ts';
import { type BenchReport, check, errorsIn, type Phase } from './lib/report.ts';
import { startRuntimeProcess } from './lib/runtime-process.ts';
import { startServerProcess } from './lib/server-process.ts';
import { round3 } from './lib/stats.ts';

export const title = "an HTTP API action via Dogu's public API vs the same GET sent directly";

const project = 'demo';
const environment = 'development';
const dataSource = { id: 'bench-http', name: 'Bench HTTP' };
const actionId = 'bench-http-items';
const actionArguments = { id: 'item-7', limit: 5 };
const directPath = `/items/${actionArguments.id}?limit=${actionArguments.limit}`;
const expectedRows = actionArguments.limit;

const parameters = {
  action: `${project}/${environment}/${actionId}`,
  arguments: actionArguments,
  actionRequest: 'GET /items/{{ id }}?limit={{ limit }}',
  directRequest: `GET ${directPath}`,
  jsonServer: 'bench/http.ts with BENCH_HTTP_ROLE=json-server (node:http, own process)',
  response: `a JSON array of ${expectedRows} objects`,
  warmUpSequentialRequests: 200,
  warmUpConcurrentRequests: 1_000,
  latencyConcurrency: 1,
  latencyRequests: 2_000,
  throughputConcurrency: 32,
  throughputDurationMs: 5_000,
  targets: { addedP50LatencyMs: 2, throughputRatioPercent: 40 },
};

interface Subject {
  name: string;
  request: RequestFn;
  close(): Promise<void>;
}

export async function run(): Promise<BenchReport> {
  const startedAt = new Date().toISOString();
  const api = await startServerProcess({
    label: 'json server',
    script: 'bench/http.ts',
    healthPath: '/healthz',
    env: { BENCH_HTTP_ROLE: 'json-server' },
  });
  progress(`json server pid ${api.pid} listening at ${api.url}`);
  try {
    const runtime = await startRuntimeProcess();
    progress(`runtime pid ${runtime.pid} listening at ${runtime.url}`);
    try {
      const subjects = { direct: directSubject(api.url), dogu: await doguSubject(runtime.url, api.url) };
      try {
        const phases = await measure(subjects);
        const notes: string[] = [];
        for (const [label, server] of [
          ['runtime', runtime],
          ['json server', api],
        ] as const) {
          const ended = server.endedBecause();
          if (ended)
            notes.push(
              `the ${label} ended during the run (${ended}); its last output:\n${server.outputTail()}`,
            );
        }
        return {
          bench: 'http',
          title,
          startedAt,
          finishedAt: new Date().toISOString(),
          parameters,
          environment: { runtimePid: runtime.pid, jsonServerPid: api.pid },
          phases,
          checks: compare(phases, subjects),
          errors: errorsIn(phases),
          notes,
        };
      } finally {
        for (const subject of Object.values(subjects)) await subject.close();
      }
    } finally {
      await runtime.stop();
      progress('runtime stopped');
    }
  } finally {
    await api.stop();
    progress('json server stopped');
  }
}

interface Subjects {
  direct: Subject;
  dogu: Subject;
}

/** As bench `execution`: warm both sides, then alternate them phase by phase. */
async function measure({ direct, dogu }: Subjects): Promise<Phase[]> {
  const p = parameters;
  const oneAtATime = (requests: number) => ({ concurrency: p.latencyConcurrency, limit: { requests } });
  const concurrent = (limit: LoadLimit) => ({ concurrency: p.throughputConcurrency, limit });
  const plan: [name: string, load: { concurrency: number; limit: LoadLimit }][] = [
    ['warm-up', oneAtATime(p.warmUpSequentialRequests)],
    ['warm-up', concurrent({ requests: p.warmUpConcurrentRequests })],
    ['latency', oneAtATime(p.latencyRequests)],
    ['throughput', concurrent({ durationMs: p.throughputDurationMs })],
  ];
  const phases: Phase[] = [];
  for (const [name, load] of plan) {
    for (const subject of [direct, dogu]) {
      progress(`${name}: ${subject.name} at concurrency ${load.concurrency}`);
      const result = await runLoad(subject.request, load);
      if (result.errors > 0) progress(`  ${result.errors} error(s), e.g. ${result.errorSamples[0]}`);
      phases.push({ name, subject: subject.name, ...result });
    }
  }
  return phases;
}

function compare(phases: readonly Phase[], { direct, dogu }: Subjects) {
  const find = (name: string, subject: Subject) =>
    phases.find((p) => p.name === name && p.subject === subject.name)!;
  const p50 = (subject: Subject) => find('latency', subject).latencyMs.p50;
  const p99 = (subject: Subject) => find('latency', subject).latencyMs.p99;
  const perSecond = (subject: Subject) => find('throughput', subject).requestsPerSecond;
  const { targets } = parameters;
  return [
    check('added p50 latency (dogu - direct)', round3(p50(dogu) - p50(direct)), 'ms', {
      comparison: '<=',
      value: targets.addedP50LatencyMs,
    }),
    check('added p99 latency (dogu - direct)', round3(p99(dogu) - p99(direct)), 'ms'),
    check('throughput ratio (dogu / direct)', round3((perSecond(dogu) / perSecond(direct)) * 100), '%', {
      comparison: '>=',
      value: targets.throughputRatioPercent,
    }),
  ];
}

/** The baseline: the GET an engineer would send by hand, with the same client as every bench. */
function directSubject(apiUrl: string): Subject {
  const client = new HttpClient(apiUrl, {
    maxSockets: parameters.throughputConcurrency * 2,
    timeoutMs: 30_000,
  });
  const request = client.prepare('GET', directPath);
  return {
    name: 'direct',
    async request() {
      const response = await client.send(request);
      if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 300)}`);
      const items = JSON.parse(response.body) as unknown[];
      if (items.length !== expectedRows)
        throw new Error(`expected ${expectedRows} items, got ${items.length}`);
    },
    async close() {
      client.close();
    },
  };
}

/** Dogu as a client sees it, after creating the data source and the action through the management API. */
async function doguSubject(runtimeUrl: string, apiUrl: string): Promise<Subject> {
  const client = new HttpClient(runtimeUrl, {
    maxSockets: parameters.throughputConcurrency * 2,
    timeoutMs: 30_000,
  });
  const login = await client.send(client.prepare('POST', '/local/v1/login'));
  if (login.status !== 200) throw new Error(`Local login answered ${login.status}: ${login.body}`);
  const { token } = JSON.parse(login.body) as { token: string };
  const authorization = { authorization: `Bearer ${token}` };

  await put(runtimeUrl, `/api/v1/projects/${project}/data-sources/${dataSource.id}`, authorization, {
    ...dataSource,
    kind: 'http',
    environments: { [environment]: { url: apiUrl } },
  });
  await put(runtimeUrl, `/api/v1/projects/${project}/actions/${actionId}`, authorization, {
    id: actionId,
    name: 'Bench HTTP items',
    kind: 'http',
    dataSourceId: dataSource.id,
    method: 'GET',
    path: '/items/{{ id }}',
    query: [{ key: 'limit', value: '{{ limit }}' }],
    parameters: [
      { name: 'id', kind: 'text', required: true },
      { name: 'limit', kind: 'number' },
    ],
  });

  const execute = client.prepare(
    'POST',
    `/public/v1/projects/${project}/environments/${environment}/actions/${actionId}/executions`,
    { headers: authorization, json: { arguments: actionArguments } },
  );
  return {
    name: 'dogu',
    async request() {
      const response = await client.send(execute);
      if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 300)}`);
      const parsed = JSON.parse(response.body) as { results?: { rows?: unknown[] }[] };
      const rows = parsed.results?.[0]?.rows?.length;
      if (rows !== expectedRows) throw new Error(`expected ${expectedRows} rows, got ${rows}`);
    },
    async close() {
      client.close();
    },
  };
}

/**
 * A PUT to the management API (setup, not measured, so plain fetch). The
 * bench cannot run without it; a missing route says so plainly rather than
 * measuring something else.
 */
async function put(
  runtimeUrl: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<void> {
  const response = await fetch(`${runtimeUrl}${path}`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.ok) return;
  throw new Error(
    response.status === 404 || response.status === 405
      ? `The management API is not available in this runtime: PUT ${path} answered ${response.status}. ` +
          'Bench http needs PUT /api/v1/projects/{projectId}/data-sources/{id} and /actions/{id}.'
      : `PUT ${path} answered ${response.status}: ${text.slice(0, 500)}`,
  );
}

// ---------------------------------------------------------------- the JSON server role

/** The API the action calls: GET /items/:id?limit=N answers N small objects. */
function serveJson(): void {
  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT);
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const item = /^\/items\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && url.pathname === '/healthz')
      return reply(response, 200, { status: 'ok' });
    if (request.method !== 'GET' || !item)
      return reply(response, 404, { error: `no route ${request.method} ${url.pathname}` });
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 10), 1000);
    const id = decodeURIComponent(item[1]!);
    reply(
      response,
      200,
      Array.from({ length: limit }, (_, index) => ({
        id,
        index,
        name: `item ${index}`,
        priceYen: index * 100,
      })),
    );
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, host);
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

function reply(response: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

if (process.env.BENCH_HTTP_ROLE === 'json-server') serveJson();
