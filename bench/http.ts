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
import { compareSubjects, type Subject, standardPhases } from './lib/compare.ts';
import { benchClient, DoguSession } from './lib/dogu.ts';
import type { HttpClient } from './lib/http-client.ts';
import { sendJson } from './lib/json-response.ts';
import { rssMbOf } from './lib/memory.ts';
import type { BenchReport } from './lib/report.ts';
import { startRuntimeProcess } from './lib/runtime-process.ts';
import { announce, endedDuringRun, startServerProcess } from './lib/server-process.ts';
import { withTeardown } from './lib/teardown.ts';

export const title = "an HTTP API action via Dogu's public API vs the same GET sent directly";

const action = { project: 'demo', environment: 'development', id: 'bench-http-items' } as const;
const dataSource = { id: 'bench-http', name: 'Bench HTTP' };
const actionArguments = { id: 'item-7', limit: 5 };
const directPath = `/items/${actionArguments.id}?limit=${actionArguments.limit}`;
const expectedRows = actionArguments.limit;

const parameters = {
  action: `${action.project}/${action.environment}/${action.id}`,
  arguments: actionArguments,
  actionRequest: 'GET /items/{{ id }}?limit={{ limit }}',
  directRequest: `GET ${directPath}`,
  jsonServer: 'bench/http.ts with BENCH_HTTP_ROLE=json-server (node:http, own process)',
  response: `a JSON array of ${expectedRows} objects`,
  ...standardPhases,
};

export function run(): Promise<BenchReport> {
  return withTeardown(async (defer) => {
    const startedAt = new Date().toISOString();
    const api = announce(
      'json server',
      await startServerProcess({
        label: 'json server',
        script: 'bench/http.ts',
        healthPath: '/healthz',
        env: { BENCH_HTTP_ROLE: 'json-server' },
      }),
      defer,
    );
    const runtime = announce('runtime', await startRuntimeProcess(), defer);

    const directClient = benchClient(api.url, parameters);
    defer(() => directClient.close());
    const dogu = await DoguSession.login(runtime.url, parameters);
    defer(() => dogu.close());
    await createDefinitions(dogu, api.url);

    const comparison = await compareSubjects({
      baseline: directSubject(directClient),
      subject: {
        ...dogu.executionSubject(action, actionArguments, expectedRows),
        rssMb: () => rssMbOf(runtime.pid),
      },
      phases: parameters,
    });
    return {
      bench: 'http',
      title,
      startedAt,
      finishedAt: new Date().toISOString(),
      parameters,
      environment: { runtimePid: runtime.pid, jsonServerPid: api.pid },
      ...comparison,
      notes: endedDuringRun({ runtime, 'json server': api }),
    };
  });
}

/** The baseline: the GET an engineer would send by hand, with the same client as every bench. */
function directSubject(client: HttpClient): Subject {
  const request = client.prepare('GET', directPath);
  return {
    name: 'direct',
    async request() {
      const items = JSON.parse(await client.sendExpectingOk(request)) as unknown[];
      if (items.length !== expectedRows)
        throw new Error(`expected ${expectedRows} items, got ${items.length}`);
    },
  };
}

/** The data source and the action, through the management API as a user would create them. */
async function createDefinitions(dogu: DoguSession, apiUrl: string): Promise<void> {
  await dogu.put(`/api/v1/projects/${action.project}/data-sources/${dataSource.id}`, {
    ...dataSource,
    kind: 'http',
    environments: { [action.environment]: { url: apiUrl } },
  });
  await dogu.put(`/api/v1/projects/${action.project}/actions/${action.id}`, {
    id: action.id,
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
      return sendJson(response, 200, { status: 'ok' });
    if (request.method !== 'GET' || !item)
      return sendJson(response, 404, { error: `no route ${request.method} ${url.pathname}` });
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 10), 1000);
    const id = decodeURIComponent(item[1]!);
    sendJson(
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

if (process.env.BENCH_HTTP_ROLE === 'json-server') serveJson();
