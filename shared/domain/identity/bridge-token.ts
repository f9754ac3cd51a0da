/**
 * Connection tokens for bridges (docs/bridge.md): one per tunnel, signed by Dogu's own IdP, with
 * the bridge id as audience and the project, environment, data source and target as claims, a
 * random jti the bridge remembers (no replay) and a life of one minute.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { type OwnIdp, ownIdpAlgorithm, storageSubject } from './own-idp.ts';

/** Long enough for one CONNECT round trip; the bridge refuses anything above 300 seconds. */
export const bridgeTokenSeconds = 60;

export interface BridgeTokenRequest {
  bridgeId: string;
  projectId: string;
  environmentId: string;
  dataSourceId: string;
  /** `host:port`. */
  target: string;
}

export async function issueBridgeToken(request: BridgeTokenRequest, idp: OwnIdp): Promise<string> {
  const { kid, key } = await idp.keys.current();
  const issuedAt = Math.floor(idp.clock.now().getTime() / 1000);
  return new SignJWT({
    project_id: request.projectId,
    environment_id: request.environmentId,
    data_source_id: request.dataSourceId,
    target: request.target,
  })
    .setProtectedHeader({ alg: ownIdpAlgorithm, typ: 'JWT', kid })
    .setIssuer(idp.issuer())
    .setSubject(storageSubject(request.projectId, request.environmentId))
    .setAudience(request.bridgeId)
    .setJti(randomUUID())
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + bridgeTokenSeconds)
    .sign(key);
}
