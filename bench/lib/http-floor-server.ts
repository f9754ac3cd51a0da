/**
 * The "http floor" of bench `execution`: about the least an HTTP service can
 * do to run the action's SQL for a client. Bare `node:http`, no framework,
 * no authentication, no store, no execution record: read and parse the JSON
 * body, run the one parameterised statement on a `pg.Pool`, answer
 * `{"results":[{"rows":[...]}]}` (the part of Dogu's answer the bench checks).
 * Whatever Dogu costs beyond this is Dogu's; what this costs beyond raw `pg`
 * is HTTP, JSON and a second process on the same CPUs.
 *
 * Run by the bench as `node --import tsx bench/lib/http-floor-server.ts`
 * (see bench/lib/server-process.ts). Environment:
 *   HOST, PORT                      where to listen
 *   BENCH_FLOOR_DATABASE_URL        the PostgreSQL database
 *   BENCH_FLOOR_SQL                 the statement, with $1, $2, ...
 *   BENCH_FLOOR_PARAMETERS          JSON array of argument names, in $n order
 *   BENCH_FLOOR_POOL_SIZE           the pool's max
 * Routes: GET /healthz (200 when listening), POST /execute with
 * `{"arguments":{...}}`.
 */
import http from 'node:http';
import pg from 'pg';
import { sendJson } from './json-response.ts';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set.`);
  return value;
}

const host = required('HOST');
const port = Number(required('PORT'));
const sql = required('BENCH_FLOOR_SQL');
const parameterNames = JSON.parse(required('BENCH_FLOOR_PARAMETERS')) as string[];
const pool = new pg.Pool({
  connectionString: required('BENCH_FLOOR_DATABASE_URL'),
  max: Number(required('BENCH_FLOOR_POOL_SIZE')),
});
pool.on('error', () => {}); // an idle client dropped by the server; the pool replaces it

const server = http.createServer((request, response) => {
  void handle(request, response);
});

async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  try {
    if (request.method === 'GET' && request.url === '/healthz')
      return sendJson(response, 200, { status: 'ok' });
    if (request.method !== 'POST' || request.url !== '/execute') {
      return sendJson(response, 404, { error: `no route ${request.method} ${request.url}` });
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let body: { arguments?: Record<string, unknown> };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
    } catch {
      return sendJson(response, 400, { error: 'body is not JSON' });
    }
    const values = parameterNames.map((name) => body.arguments?.[name]);
    const result = await pool.query(sql, values);
    sendJson(response, 200, { results: [{ rows: result.rows }] });
  } catch (error) {
    sendJson(response, 500, { error: error instanceof Error ? error.message : String(error) });
  }
}

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  server.close();
  server.closeAllConnections(); // the bench's keep-alive sockets would otherwise hold close() open
  await pool.end();
  process.exit(0);
}
// SIGINT too: Ctrl-C in a terminal reaches the whole process group, this process included.
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

server.listen(port, host, () => {
  console.log(`http floor listening at http://${host}:${port}`);
});
