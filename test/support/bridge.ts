/**
 * A real bridge agent process (`node cli/bin.js bridge --config FILE`), the JWKS of a test IdP it
 * trusts, and BridgeRoutes whose tokens that IdP signs: what Dogu's engines get for a `via` run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { issueBridgeToken } from '../../shared/domain/identity/bridge-token.ts';
import type { OwnIdp } from '../../shared/domain/identity/own-idp.ts';
import type { BridgeRoute } from '../../shared/domain/ports.ts';
import { selfSignedCertificate, startHttpServer, type TestServer } from './http-server.ts';
import { processStartMs, repoRoot, waitForOutput } from './process.ts';

export interface TestIdp {
  idp: OwnIdp;
  jwks: TestServer;
  issuer: string;
  close(): Promise<void>;
}

/** An IdP of Dogu's shape whose JWKS a test HTTP server answers at <issuer>/jwks. */
export async function startTestIdp(kid = 'test-key'): Promise<TestIdp> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const jwks = await startHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ keys: [jwk] }));
  });
  const issuer = `${jwks.url}/idp`;
  const idp: OwnIdp = {
    issuer: () => issuer,
    tenantSubdomain: 'local',
    clock: { now: () => new Date() },
    tokenSeconds: 3600,
    keys: { current: async () => ({ kid, key: privateKey }), publicKeys: async () => [jwk] },
  };
  return { idp, jwks, issuer, close: () => jwks.close() };
}

export interface BridgeProcess {
  url: string;
  certificate: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

export interface BridgeSettings {
  id: string;
  issuer: string;
  allow: string[];
  hosts?: Record<string, string>;
  timeoutMs?: number;
}

/** Starts `dogu bridge` on a free port of 127.0.0.1 with a fresh self-signed certificate. */
export async function startBridgeProcess(settings: BridgeSettings): Promise<BridgeProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'dogu-bridge-test-'));
  const tls = await selfSignedCertificate();
  await writeFile(join(dir, 'cert.pem'), tls.cert);
  await writeFile(join(dir, 'key.pem'), tls.key, { mode: 0o600 });
  await writeFile(
    join(dir, 'bridge.json'),
    JSON.stringify({
      ...settings,
      host: '127.0.0.1',
      port: 0,
      tls: { certFile: 'cert.pem', keyFile: 'key.pem' },
    }),
  );
  const child = spawn(process.execPath, ['cli/bin.js', 'bridge', '--config', join(dir, 'bridge.json')], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (data: Buffer) => {
    output += data.toString();
  });
  child.stderr?.on('data', (data: Buffer) => {
    output += data.toString();
  });
  const [, url] = await waitForOutput(child, /"url":"(https:\/\/[^"]+)"/, processStartMs);
  return {
    url: url!,
    certificate: tls.cert,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** What Dogu gives the engines for an environment with `via: <bridge id>`. */
export function routeTo(
  bridge: { id: string; url: string; certificates: string[] },
  idp: OwnIdp,
  claims: { projectId?: string; environmentId?: string; dataSourceId?: string } = {},
): BridgeRoute {
  return {
    ...bridge,
    token: (target) =>
      issueBridgeToken(
        {
          bridgeId: bridge.id,
          projectId: claims.projectId ?? 'p',
          environmentId: claims.environmentId ?? 'dev',
          dataSourceId: claims.dataSourceId ?? 'db',
          target,
        },
        idp,
      ),
  };
}
