/**
 * On each MCP request with an OAuth access token: its grant must still exist (revocation ends it at
 * once) and the person must still be a member of the project. Answers the client's registered
 * name, which the records use instead of the self-declared `clientInfo.name`.
 */
import { isMcpToken, liveGrant } from '../../domain/agents/oauth/tokens.ts';
import { unauthorized } from '../../domain/errors.ts';
import type { CoreServices } from '../../runtime/core-services.ts';
import type { HttpRequest } from '../handler.ts';
import { withOAuthChallenge } from './oauth-challenge.ts';

export async function oauthClientOf(
  request: HttpRequest,
  services: CoreServices,
): Promise<string | undefined> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(request.event.headers.authorization ?? '')?.[1];
  if (!token) return undefined;
  const { claims } = await services.tokens.verifyWithClaims(token);
  if (!isMcpToken(claims)) return undefined;
  const { projectId, environmentId } = request.pathParameters as Record<string, string>;
  const live = await liveGrant({ ...services, oauth: services.mcpOAuth }, claims, {
    projectId: projectId!,
    environmentId: environmentId!,
  });
  if ('refusal' in live) throw withOAuthChallenge(request.route, request.event, unauthorized(live.refusal));
  return live.grant.clientName;
}
