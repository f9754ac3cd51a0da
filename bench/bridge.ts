/**
 * Bench `bridge`: what does a bridge (docs/bridge.md) cost a PostgreSQL action? The same SQL action
 * run by Dogu's engines (the PostgreSQL runtime with its pool) directly and through a real bridge
 * process (`dogu bridge`: TLS to the bridge, a CONNECT tunnel, the driver's protocol inside), on one
 * scratch database, in one run. The ratio of the two throughputs is the bridge's price; pooled
 * connections keep their tunnels, so it is the relaying, not the handshakes, that is measured.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { exportJWK, generateKeyPair } from 'jose';
import { createActionEngines } from '../shared/connectors/engines.ts';
import { loadConnectorRuntime } from '../shared/connectors/runtimes.ts';
import { issueBridgeToken } from '../shared/domain/identity/bridge-token.ts';
import type { OwnIdp } from '../shared/domain/identity/own-idp.ts';
import type { Action, DataSource, StatementResult } from '../shared/domain/model.ts';
import type { BridgeRoute, EngineRun } from '../shared/domain/ports.ts';
import { deferCleanup } from './lib/cleanup.ts';
import { compareSubjects, type Subject, standardPhases } from './lib/compare.ts';
import { repoRoot } from './lib/paths.ts';
import { createScratchDatabase, serverVersion } from './lib/postgres.ts';
import { progress } from './lib/progress.ts';
import type { BenchReport } from './lib/report.ts';
import { withTeardown } from './lib/teardown.ts';

export const title = 'a PostgreSQL action through a bridge process vs the same action direct (Dogu engines)';

const rows = 100;
const sql = `SELECT g AS id, md5(g::text) AS label FROM generate_series(1, ${rows}) g`;
const parameters = {
  sql,
  rows,
  poolSize: 10,
  bridgeTimeoutMs: 30_000,
  ...standardPhases,
  // The bridge adds a TLS hop and a process relaying bytes; it must keep at least half the throughput.
  targets: { addedP50LatencyMs: 2, throughputRatioPercent: 50 },
};

export function run(): Promise<BenchReport> {
  return withTeardown(async (defer) => {
    const startedAt = new Date().toISOString();
    const database = await createScratchDatabase('dogu_bench_bridge');
    defer(() => database.drop(), `dropped database ${database.name}`);
    const idp = await testIdp();
    defer(idp.close);
    const bridge = await startBridge(idp.issuer);
    defer(bridge.stop, 'stopped the bridge');
    const engines = createActionEngines(
      { poolSize: parameters.poolSize },
      { loadRuntime: loadConnectorRuntime },
    );
    defer(() => engines.close());

    const route: BridgeRoute = {
      id: 'bench',
      url: bridge.url,
      certificates: [bridge.certificate],
      token: (target) =>
        issueBridgeToken(
          { bridgeId: 'bench', projectId: 'p', environmentId: 'e', dataSourceId: 'db', target },
          idp.idp,
        ),
    };
    const subject = (name: string, bridged: boolean): Subject => ({
      name,
      label: bridged ? 'bridge' : 'direct',
      async request() {
        const [result] = await engines.run(runOf(database.name, bridged ? route : undefined));
        if (result?.status !== 'succeeded' || result.rowCount !== rows)
          throw new Error(result?.error?.message ?? `expected ${rows} rows`);
      },
    });
    const comparison = await compareSubjects({
      baseline: subject('direct (engines → PostgreSQL)', false),
      subject: subject('through the bridge', true),
      phases: parameters,
    });
    return {
      bench: 'bridge',
      title,
      startedAt,
      finishedAt: new Date().toISOString(),
      parameters,
      environment: { postgres: await serverVersion(), database: database.name, bridgePid: bridge.pid ?? 0 },
      ...comparison,
      notes: bridge.child.exitCode === null ? [] : [`the bridge ended during the run: ${bridge.output()}`],
    };
  });
}

function runOf(databaseName: string, bridge: BridgeRoute | undefined): EngineRun {
  const connection = { host: '127.0.0.1', port: 5432, database: databaseName, user: 'postgres' };
  const key = bridge ? 'bench/bridged/e' : 'bench/direct/e';
  return {
    action: {
      id: 'a',
      name: 'Rows',
      kind: 'sql',
      parameters: [],
      statements: [{ title: 'Rows', sql }],
    } as unknown as Action,
    dataSource: {
      id: 'db',
      projectId: 'bench',
      kind: 'postgresql',
      environments: { e: connection },
    } as unknown as DataSource,
    environmentId: 'e',
    connection: bridge ? { ...connection, via: 'bench' } : connection,
    key,
    values: {},
    signal: AbortSignal.timeout(30_000),
    deadlineAt: Date.now() + 30_000,
    callAction: async (): Promise<StatementResult[]> => [],
    ...(bridge ? { bridge } : {}),
  };
}

/** Keys of an IdP shaped like Dogu's, their JWKS served on loopback for the bridge to fetch. */
async function testIdp() {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' };
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/idp`;
  const idp: OwnIdp = {
    issuer: () => issuer,
    tenantSubdomain: 'bench',
    clock: { now: () => new Date() },
    tokenSeconds: 3600,
    keys: { current: async () => ({ kid: 'bench', key: privateKey }), publicKeys: async () => [jwk] },
  };
  return { idp, issuer, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function startBridge(issuer: string) {
  const dir = await mkdtemp(join(tmpdir(), 'dogu-bench-bridge-'));
  await promisify(execFile)('openssl', [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
    ...['-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1'],
    ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
  ]);
  await writeFile(
    join(dir, 'bridge.json'),
    JSON.stringify({
      id: 'bench',
      issuer,
      host: '127.0.0.1',
      port: 0,
      tls: { certFile: 'cert.pem', keyFile: 'key.pem' },
      allow: ['127.0.0.1:5432'],
      timeoutMs: parameters.bridgeTimeoutMs,
    }),
  );
  const child: ChildProcess = spawn(
    process.execPath,
    ['cli/bin.js', 'bridge', '--config', join(dir, 'bridge.json')],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the bridge did not start: ${output}`)), 60_000);
    const onData = (data: Buffer) => {
      output = (output + data.toString()).slice(-16_384);
      const match = /"url":"(https:\/\/[^"]+)"/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the bridge exited with ${code}: ${output}`)));
  });
  progress(`bridge listening at ${url} (pid ${child.pid})`);
  const stop = deferCleanup('stop the bridge', async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    await rm(dir, { recursive: true, force: true });
  });
  return {
    url,
    pid: child.pid,
    child,
    certificate: await readFile(join(dir, 'cert.pem'), 'utf8'),
    output: () => output,
    stop,
  };
}
