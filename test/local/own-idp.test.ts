/**
 * The service's own IdP (spec 5.2) on a real embedded runtime: tokens issued
 * by the domain function are verified the way a relying cloud would, with
 * openid-client's standard discovery and jose's remote JWKS, across a key
 * rotation; tampering fails; private keys stay in a 0600 file.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createRemoteJWKSet, decodeProtectedHeader, type JWTPayload, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { parseKeyDocument, SigningKeyRing } from '../../shared/adapters/idp/signing-keys.ts';
import { issueStorageIdToken } from '../../shared/domain/identity/own-idp.ts';
import { startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let dir: Awaited<ReturnType<typeof tempDir>>;
const audience = 'sts.cloud-a.example';

beforeAll(async () => {
  dir = await tempDir('own-idp');
  runtime = await startTestRuntime(dir.path);
});

afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

const issue = (audienceValue = audience) =>
  issueStorageIdToken(
    { projectId: 'prj_shop', environmentId: 'env_prod', audience: audienceValue },
    runtime.services.idp,
  );

/** A relying party that knows only the issuer URL, as cloud A or cloud B would. */
async function verifier() {
  const issuer = new URL(`${runtime.url}/idp`);
  const config = await client.discovery(issuer, 'storage-relying-party', undefined, undefined, {
    execute: [client.allowInsecureRequests], // http on loopback in this test only
  });
  const metadata = config.serverMetadata();
  // cooldownDuration 0: refetch at once on an unknown kid, as after a rotation.
  const jwks = createRemoteJWKSet(new URL(metadata.jwks_uri!), { cooldownDuration: 0 });
  return {
    metadata,
    verify: (token: string, aud = audience) =>
      jwtVerify(token, jwks, { issuer: metadata.issuer, audience: aud, algorithms: ['RS256'] }),
  };
}

const ring = () => {
  const keys = runtime.services.idp.keys;
  if (!(keys instanceof SigningKeyRing)) throw new Error('the embedded runtime uses a SigningKeyRing');
  return keys;
};

describe("the service's own IdP", () => {
  it('publishes a discovery document that names the issuer and the JWKS', async () => {
    const { metadata } = await verifier();
    expect(metadata.issuer).toBe(`${runtime.url}/idp`);
    expect(metadata.jwks_uri).toBe(`${runtime.url}/idp/jwks`);
    expect(metadata.id_token_signing_alg_values_supported).toEqual(['RS256']);
    expect(metadata.response_types_supported).toEqual(['id_token']);
    expect(metadata.subject_types_supported).toEqual(['public']);
  });

  it('issues ID tokens that a standard OIDC verifier accepts, with the storage claims', async () => {
    const { token, expiresAt } = await issue();
    const { payload, protectedHeader } = await (await verifier()).verify(token);
    const [current] = await ring().publicKeys();
    expect(protectedHeader).toMatchObject({ alg: 'RS256', kid: current!.kid });
    expect(payload).toMatchObject({
      iss: `${runtime.url}/idp`,
      aud: audience,
      sub: 'project:prj_shop:environment:env_prod',
      tenant_subdomain: 'local',
      project_id: 'prj_shop',
      environment_id: 'env_prod',
    } satisfies JWTPayload);
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(3600);
    expect(expiresAt.getTime()).toBe(payload.exp! * 1000);
  });

  it('is refused for another audience', async () => {
    const { token } = await issue('someone-else');
    await expect((await verifier()).verify(token)).rejects.toThrow(/aud/);
  });

  it('fails verification when a claim is tampered with', async () => {
    const { token } = await issue();
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as JWTPayload;
    const forged = Buffer.from(JSON.stringify({ ...claims, project_id: 'prj_other' })).toString('base64url');
    await expect((await verifier()).verify(`${header}.${forged}.${signature}`)).rejects.toThrow(
      /signature verification failed/,
    );
  });

  it('rotates keys: new tokens use the new kid, tokens signed before still verify', async () => {
    const { verify } = await verifier();
    const before = await issue();
    const oldKid = decodeProtectedHeader(before.token).kid;
    await verify(before.token); // the verifier has now cached the JWKS with the old key only

    const { kid: newKid } = await ring().rotate();
    expect(newKid).not.toBe(oldKid);
    const after = await issue();
    expect(decodeProtectedHeader(after.token).kid).toBe(newKid);

    await expect(verify(after.token)).resolves.toBeDefined();
    await expect(verify(before.token)).resolves.toBeDefined();
    const published = (await ring().publicKeys()).map((key) => key.kid);
    expect(published).toEqual([newKid, oldKid]);
  });

  it('keeps private keys in a 0600 file and never publishes them', async () => {
    const path = join(runtime.dataDir, 'idp-keys.json');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const stored = parseKeyDocument(await readFile(path, 'utf8'));
    expect(stored.length).toBeGreaterThanOrEqual(2);

    const response = await fetch(`${runtime.url}/idp/jwks`);
    expect(response.status).toBe(200);
    const text = await response.text();
    const { keys } = JSON.parse(text) as { keys: Record<string, unknown>[] };
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
      expect(key).toMatchObject({ kty: 'RSA', use: 'sig', alg: 'RS256' });
    }
    for (const { jwk } of stored) {
      for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi'] as const) {
        const value = jwk[member];
        expect(typeof value).toBe('string');
        expect(text).not.toContain(value as string);
      }
    }
  });
});
