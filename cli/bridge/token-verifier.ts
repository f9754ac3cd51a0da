/**
 * Verifies Dogu's connection tokens with jose against Dogu's JWKS: fetched when first needed,
 * cached, and fetched again when a token names a key id the cache does not know (key rotation),
 * at most every 30 seconds. Issuer, audience (this bridge's id), algorithm, lifetime and the
 * claims a tunnel needs are all required.
 */
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import {
  type BridgeTokenClaims,
  bridgeTokenMaxSeconds,
} from '../../shared/connectors/network/bridge-protocol.ts';

export interface VerifiedToken extends BridgeTokenClaims {
  jti: string;
  exp: number;
}

export class TokenRefused extends Error {}

export function tokenVerifier(options: { issuer: string; jwksUri: string; audience: string }) {
  const jwks = createRemoteJWKSet(new URL(options.jwksUri), {
    cooldownDuration: 30_000,
    cacheMaxAge: 10 * 60_000,
    timeoutDuration: 5_000,
  });
  return async (token: string): Promise<VerifiedToken> => {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, jwks, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: ['RS256'],
        requiredClaims: ['exp', 'iat', 'jti'],
        clockTolerance: 5,
      }));
    } catch (error) {
      throw new TokenRefused(reason(error));
    }
    const text = (name: string) => {
      const value = payload[name];
      if (typeof value !== 'string' || value === '') throw new TokenRefused(`the token has no ${name} claim`);
      return value;
    };
    const exp = payload.exp as number;
    const iat = payload.iat as number;
    if (exp - iat > bridgeTokenMaxSeconds)
      throw new TokenRefused(`the token lives longer than ${bridgeTokenMaxSeconds} seconds`);
    return {
      jti: text('jti'),
      exp,
      project_id: text('project_id'),
      environment_id: text('environment_id'),
      data_source_id: text('data_source_id'),
      target: text('target'),
    };
  };
}

function reason(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the token has expired';
  if (error instanceof errors.JWTClaimValidationFailed)
    return `the token's ${error.claim} claim is not accepted`;
  if (error instanceof errors.JWKSNoMatchingKey) return "the token's key is not in Dogu's key set";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the token's signature does not verify";
  if (error instanceof errors.JWKSTimeout) return "Dogu's key set did not answer in time";
  if (!(error instanceof errors.JOSEError))
    return `Dogu's key set could not be fetched (${error instanceof Error ? error.message : String(error)})`;
  return `the token is not valid (${(error as Error).message})`;
}
