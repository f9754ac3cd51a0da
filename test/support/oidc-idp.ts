/**
 * A real OIDC identity provider for tests: an HTTPS server on 127.0.0.1 with a
 * certificate of a test CA made by the openssl CLI, serving discovery and a
 * JWKS, and a helper that signs ID tokens with its keys.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';
import { startHttpServer, type TestServer } from './http-server.ts';

const run = promisify(execFile);

export interface TestCa {
  /** PEM of the CA certificate: what DOGU_OIDC_EXTRA_CA_FILE points at. */
  caPem: string;
  caFile: string;
  /** A certificate for 127.0.0.1 signed by the CA. */
  server: { key: string; cert: string };
  remove(): Promise<void>;
}

/** A CA and one server certificate for 127.0.0.1 and localhost, valid for a day. */
export async function createTestCa(): Promise<TestCa> {
  const dir = await mkdtemp(join(tmpdir(), 'dogu-ca-'));
  const path = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  try {
    await run('openssl', [
      'req',
      '-x509',
      ...ec,
      '-days',
      '1',
      '-subj',
      '/CN=Dogu Test CA',
      '-keyout',
      path('ca.key'),
      '-out',
      path('ca.pem'),
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);
    await run('openssl', [
      'req',
      ...ec,
      '-subj',
      '/CN=127.0.0.1',
      '-keyout',
      path('server.key'),
      '-out',
      path('server.csr'),
    ]);
    await writeFile(
      path('ext.cnf'),
      'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
    );
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      path('server.csr'),
      '-CA',
      path('ca.pem'),
      '-CAkey',
      path('ca.key'),
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      path('ext.cnf'),
      '-out',
      path('server.pem'),
    ]);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`The OIDC tests need the openssl CLI to make a test CA: ${String(error)}`);
  }
  return {
    caPem: await readFile(path('ca.pem'), 'utf8'),
    caFile: path('ca.pem'),
    server: {
      key: await readFile(path('server.key'), 'utf8'),
      cert: await readFile(path('server.pem'), 'utf8'),
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export interface SigningKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function signingKey(kid: string, alg = 'RS256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

export interface TestIdp {
  issuer: string;
  server: TestServer;
  keys: SigningKey[];
  /** What discovery answers; tests may change it (another issuer, an http jwks_uri…). */
  discovery: Record<string, unknown>;
  /** Requests for the JWKS so far. */
  jwksFetches(): number;
  /** Signs an ID token: iss, aud, sub, iat and a 5-minute exp unless `claims` says otherwise. */
  sign(
    claims?: JWTPayload,
    options?: { key?: SigningKey; header?: Record<string, unknown> },
  ): Promise<string>;
  close(): Promise<void>;
}

export async function startTestIdp(
  ca: TestCa,
  options: { audience?: string; path?: string; keys?: SigningKey[] } = {},
): Promise<TestIdp> {
  const keys = options.keys ?? [await signingKey('key-1')];
  const prefix = options.path ?? '';
  const state: { discovery: Record<string, unknown> } = { discovery: {} };
  const server = await startHttpServer(
    (request, response) => {
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.url === `${prefix}/.well-known/openid-configuration`) send(200, state.discovery);
      else if (request.url === `${prefix}/jwks`) send(200, { keys: keys.map((key) => key.publicJwk) });
      else send(404, { error: 'not found' });
    },
    { tls: ca.server },
  );
  const issuer = `${server.url}${prefix}`;
  state.discovery = {
    issuer,
    jwks_uri: `${issuer}/jwks`,
    id_token_signing_alg_values_supported: ['RS256', 'ES384'],
  };
  return {
    issuer,
    server,
    keys,
    get discovery() {
      return state.discovery;
    },
    set discovery(value) {
      state.discovery = value;
    },
    jwksFetches: () => server.requests.filter((r) => r.url === `${prefix}/jwks`).length,
    async sign(claims = {}, signOptions = {}) {
      const key = signOptions.key ?? keys[0]!;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        iss: issuer,
        aud: options.audience ?? 'dogu',
        sub: 'repo:acme/app:ref:refs/heads/main',
        iat: now,
        exp: now + 300,
        ...claims,
      })
        .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...signOptions.header })
        .sign(key.privateKey);
    },
    close: () => server.close(),
  };
}

/** base64url of a JSON value, for hand-made tokens (alg none, HS256 confusion, broken parts). */
export const b64url = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
