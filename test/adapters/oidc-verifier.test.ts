/**
 * The ID-token verifier against real HTTPS IdPs (test CA by openssl): JWKS
 * caching, the unknown-kid refresh cooldown, key rotation, and which IdP
 * failures are the caller's (invalid_grant) or temporary (503).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OidcIdTokenVerifier, unverifiedClaims } from '../../shared/adapters/oidc/id-token-verifier.ts';
import { matchesBoundClaims } from '../../shared/domain/identity/bound-claims.ts';
import {
  acceptIdToken,
  IdpUnavailableError,
  IdTokenRejectedError,
  TokenEndpointError,
} from '../../shared/domain/identity/token-exchange.ts';
import { unusedPort } from '../support/http-server.ts';
import { MemoryIdentityStore } from '../support/memory-identity-store.ts';
import { createTestCa, signingKey, startTestIdp, type TestCa, type TestIdp } from '../support/oidc-idp.ts';

let ca: TestCa;
let idp: TestIdp;
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
const verifierFor = (extraCa = ca.caPem) => new OidcIdTokenVerifier({ clock, extraCa });

beforeAll(async () => {
  ca = await createTestCa();
  idp = await startTestIdp(ca);
});
afterAll(async () => {
  await idp?.close();
  await ca?.remove();
});

describe('OidcIdTokenVerifier', () => {
  it('peeks the unverified claims of a compact JWS only, and its iss only when a non-empty string', () => {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const header = part({ alg: 'RS256' });
    const claims = { iss: 'https://idp.example', sub: 'ü', n: 1 };
    const verifier = verifierFor();
    expect(unverifiedClaims(`${header}.${part(claims)}.c2ln`)).toEqual(claims);
    expect(verifier.peekIssuer(`${header}.${part(claims)}.`)).toBe('https://idp.example');
    for (const token of [
      '',
      'hello',
      '...',
      `${header}.${part(claims)}`,
      `${header}.${part(claims)}.c2ln.x`,
      `${header}.${part(claims)}.a.b.c`,
      `${header}..c2ln`,
      `${header}.${part(claims)}=.c2ln`,
      `${header}.${part(claims).slice(0, 10)}+/${part(claims).slice(10)}.c2ln`,
      `${header}.${part([claims])}.c2ln`,
      `${header}.${part('text')}.c2ln`,
      `${header}.${part(null)}.c2ln`,
      `${header}.${Buffer.from('{"iss":').toString('base64url')}.c2ln`,
    ]) {
      expect(unverifiedClaims(token), token).toBeUndefined();
      expect(verifier.peekIssuer(token), token).toBeUndefined();
    }
    for (const iss of ['', 7, ['https://idp.example'], null]) {
      expect(verifier.peekIssuer(`${header}.${part({ iss })}.c2ln`)).toBeUndefined();
    }
  });

  it('fetches discovery and keys once and reuses them', async () => {
    const verifier = verifierFor();
    const before = idp.jwksFetches();
    for (let i = 0; i < 5; i++) {
      expect(await verifier.verify(await idp.sign(), idp.issuer, ['dogu'])).toMatchObject({ aud: 'dogu' });
    }
    expect(idp.jwksFetches() - before).toBe(1);
  });

  it('remembers a verified token until it expires, per issuer and audiences, and not with the cache off', async () => {
    const verifier = verifierFor();
    const exp = Math.floor(Date.now() / 1000) + 120;
    const token = await idp.sign({ exp });
    expect(await verifier.verify(token, idp.issuer, ['dogu'])).toMatchObject({ exp });
    expect(verifier.stats().size).toBe(1);
    expect(await verifier.verify(token, idp.issuer, ['dogu'])).toMatchObject({ exp });
    expect(verifier.stats().size).toBe(1);
    // Other audiences are another question: answered by a verification of its own.
    await expect(verifier.verify(token, idp.issuer, ['other'])).rejects.toBeInstanceOf(IdTokenRejectedError);
    // Past its exp (and the skew), the remembered answer is gone and the token is refused.
    const offset = clock.offsetMs;
    clock.offsetMs += 200_000;
    try {
      await expect(verifier.verify(token, idp.issuer, ['dogu'])).rejects.toBeInstanceOf(IdTokenRejectedError);
    } finally {
      clock.offsetMs = offset;
    }
    const off = new OidcIdTokenVerifier({ clock, extraCa: ca.caPem, verifiedCacheSize: 0 });
    await off.verify(token, idp.issuer, ['dogu']);
    expect(off.stats()).toEqual({ size: 0, max: 0 });
  });

  it('refetches the JWKS for an unknown kid at most once per cooldown, and picks up rotated keys', async () => {
    const verifier = verifierFor();
    await verifier.verify(await idp.sign(), idp.issuer, ['dogu']);
    const rotated = await signingKey('key-2');
    const token = await idp.sign({}, { key: rotated });
    const before = idp.jwksFetches();
    for (let i = 0; i < 3; i++) {
      await expect(verifier.verify(token, idp.issuer, ['dogu'])).rejects.toBeInstanceOf(IdTokenRejectedError);
    }
    expect(idp.jwksFetches() - before).toBe(0); // keys were fetched just now: still within the cooldown
    idp.keys.push(rotated);
    clock.offsetMs += 61_000;
    expect(await verifier.verify(token, idp.issuer, ['dogu'])).toMatchObject({ iss: idp.issuer });
    expect(idp.jwksFetches() - before).toBe(1);
    for (let i = 0; i < 3; i++) {
      await expect(
        verifier.verify(await idp.sign({}, { key: await signingKey('key-3') }), idp.issuer, ['dogu']),
      ).rejects.toBeInstanceOf(IdTokenRejectedError);
    }
    expect(idp.jwksFetches() - before).toBe(1);
    idp.keys.pop();
    clock.offsetMs = 0;
  });

  it('refuses an IdP whose certificate is not trusted, or whose discovery names another issuer', async () => {
    await expect(verifierFor('').verify(await idp.sign(), idp.issuer, ['dogu'])).rejects.toBeInstanceOf(
      IdTokenRejectedError,
    );
    const other = await startTestIdp(ca, { path: '/other' });
    other.discovery = { ...other.discovery, issuer: `${other.issuer}/` };
    await expect(verifierFor().verify(await other.sign(), other.issuer, ['dogu'])).rejects.toBeInstanceOf(
      IdTokenRejectedError,
    );
    await other.close();
  });

  it('reports an unreachable IdP as temporarily unavailable, with Retry-After at the endpoint', async () => {
    const issuer = `https://127.0.0.1:${await unusedPort()}`;
    const token = await idp.sign({ iss: issuer });
    await expect(verifierFor().verify(token, issuer, ['dogu'])).rejects.toBeInstanceOf(IdpUnavailableError);

    const identities = new MemoryIdentityStore();
    const at = new Date().toISOString();
    await identities.saveServiceAccount(
      {
        projectId: 'p',
        id: 'sa_x',
        email: 'x@p.sa.dogu',
        name: 'x',
        createdAt: at,
        updatedAt: at,
        tokenGeneration: 1,
      },
      true,
    );
    await identities.saveTrustPolicy({
      projectId: 'p',
      serviceAccountId: 'sa_x',
      id: 'tp_1',
      issuer,
      audience: 'dogu',
      boundClaims: [],
      createdAt: at,
      updatedAt: at,
      generation: 1,
    });
    const refusal = await acceptIdToken(token, {
      identities,
      verifier: verifierFor(),
      matchBoundClaims: matchesBoundClaims,
    }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TokenEndpointError);
    expect(refusal).toMatchObject({ status: 503, error: 'temporarily_unavailable', retryAfterSeconds: 30 });
  });
});
