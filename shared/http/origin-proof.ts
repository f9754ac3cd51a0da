/**
 * Checks, once per request, whether it came through CloudFront: its `x-dogu-origin-verify` header
 * holds a value of the origin-verify secret (decision 0170). The secret's client and cached values
 * live as long as the container; without DOGU_ORIGIN_VERIFY_SECRET_ARN (the embedded runtime) no
 * request is taken as coming through CloudFront.
 */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { OriginVerifySecret } from '../adapters/origin/origin-verify-secret.ts';
import { logger } from '../commons/logger.ts';
import { forbidden } from '../domain/errors.ts';
import type { Route, RouteName } from './routes.ts';
import { markThroughCloudFront, originVerifyHeader, originVerifySecretEnv } from './viewer-ip.ts';

export interface OriginProof {
  accepts(presented: string | undefined): Promise<boolean>;
}

let containerProof: { secretId: string; proof: OriginProof } | undefined;

/** The container's proof checker for the configured secret, or undefined when none is configured. */
export function originProofFromEnv(env: NodeJS.ProcessEnv = process.env): OriginProof | undefined {
  const secretId = env[originVerifySecretEnv];
  if (!secretId) return undefined;
  if (containerProof?.secretId !== secretId) {
    containerProof = { secretId, proof: new OriginVerifySecret(new SecretsManagerClient({}), { secretId }) };
  }
  return containerProof.proof;
}

/**
 * Marks `event` as coming through CloudFront when its proof is accepted. A failed read of the secret
 * is logged and the request treated as direct: the viewer header is then not believed.
 */
export async function checkOrigin(
  event: APIGatewayProxyEventV2,
  proof: OriginProof | undefined = originProofFromEnv(),
): Promise<boolean> {
  if (!proof) return false;
  let accepted = false;
  try {
    accepted = await proof.accepts(event.headers?.[originVerifyHeader]);
  } catch (error) {
    logger.warn('origin-verify secret could not be read', { error: (error as Error).name });
  }
  if (accepted) markThroughCloudFront(event);
  return accepted;
}

/**
 * Routes API Gateway serves to anyone, not only through CloudFront: the own IdP's public documents,
 * because its issuer is the API's own URL (external clouds registered it; decision 0172).
 */
export const answeredDirectly: ReadonlySet<RouteName> = new Set<RouteName>(['idpDiscovery', 'idpJwks']);

/**
 * On AWS every request comes through CloudFront (and its optional WAF): one without the origin proof
 * is refused, so API Gateway's own URL is no way around the WAF (decision 0172). Without a configured
 * secret (the embedded runtime) nothing is refused here.
 */
export async function requireCloudFront(
  event: APIGatewayProxyEventV2,
  route: Route,
  proof: OriginProof | undefined = originProofFromEnv(),
): Promise<void> {
  const through = await checkOrigin(event, proof);
  if (!proof || through || answeredDirectly.has(route.name as RouteName)) return;
  throw forbidden('This API answers only through the service URL (the ConsoleUrl output).');
}
