/**
 * What Dogu and its bridge agent (`dogu bridge`, cli/bridge/) agree on: a CONNECT request over
 * HTTPS carrying a short-lived token of Dogu's own IdP, and the headers of the bridge's answer.
 * Both sides import this file, so the names cannot drift apart (docs/bridge.md).
 */

/** The bridge refuses tokens that claim a longer life than this (a leaked token stays short). */
export const bridgeTokenMaxSeconds = 300;

/** Answer headers of the bridge. */
export const bridgeHeaders = {
  /** Why a CONNECT was refused: one of the `BridgeRefusal` codes. */
  error: 'dogu-bridge-error',
  /** A sentence for people (ASCII, no secrets). */
  message: 'dogu-bridge-message',
  /** The bridge's own per-request time-out in milliseconds. */
  timeoutMs: 'dogu-bridge-timeout-ms',
  /** The bridge's version (Dogu shows it in project settings). */
  version: 'dogu-bridge-version',
} as const;

export type BridgeRefusal =
  | 'unauthorized' // no, broken, expired or wrongly signed token, wrong issuer or audience
  | 'replayed' // the token's jti was used before
  | 'target_mismatch' // the CONNECT target differs from the token's target claim
  | 'target_not_allowed' // the target is not on the bridge's allow-list
  | 'target_unreachable' // the bridge could not reach the target (DNS, route, time-out)
  | 'target_refused' // the target refused the connection
  | 'busy'; // too many open tunnels

/** Claims of a connection token beside iss, aud (the bridge id), sub, iat, exp and jti. */
export interface BridgeTokenClaims {
  project_id: string;
  environment_id: string;
  data_source_id: string;
  /** `host:port` the tunnel may open, exactly. */
  target: string;
}

/** `host:port`, with IPv6 hosts in brackets. */
export const targetOf = (host: string, port: number) => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/** Splits `host:port` (IPv6 in brackets); undefined when it is not one. */
export function parseTarget(text: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(text);
  if (!match) return undefined;
  const port = Number(match[3]);
  if (!(port >= 1 && port <= 65_535)) return undefined;
  return { host: (match[1] ?? match[2]!).toLowerCase(), port };
}
