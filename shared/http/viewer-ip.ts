/**
 * The address of the person behind a request. Through CloudFront, API Gateway's `sourceIp` is an edge
 * server's; CloudFront's viewer-request function puts the viewer's in `x-dogu-viewer-ip`
 * (infra/console-hosting.ts), and `x-dogu-origin-verify` from a KeyValueStore (decision 0171). The
 * address is trusted only for a request whose origin proof was accepted (shared/http/origin-proof.ts),
 * so a caller going to the API directly cannot choose the address the audit records (decision 0053).
 */
import { timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** The ARN of the secret whose values CloudFront may send (decision 0170); unset in the embedded runtime. */
export const originVerifySecretEnv = 'DOGU_ORIGIN_VERIFY_SECRET_ARN';
/** The ARN of the KeyValueStore the rotation writes CloudFront's copy to (decision 0171); rotation function only. */
export const originVerifyStoreEnv = 'DOGU_ORIGIN_VERIFY_STORE_ARN';
export const viewerIpHeader = 'x-dogu-viewer-ip';
/**
 * The Host the viewer asked CloudFront for (its viewer-request function sets it): the origin the
 * browser or MCP client sees, which a function behind API Gateway cannot know otherwise (the API's
 * Host is its own, and DOGU_PUBLIC_URL of the execution function is the API's: decision 0233).
 */
export const viewerHostHeader = 'x-dogu-viewer-host';
export const originVerifyHeader = 'x-dogu-origin-verify';
/**
 * The key under which CloudFront's KeyValueStore holds the value its viewer-request function sends
 * as `originVerifyHeader` (decision 0171): written by the rotation, read at the edge.
 */
export const originVerifyStoreKey = 'origin-verify';

/** Compares a presented secret without leaking, through timing, how much of it matched. */
export const sameSecret = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/**
 * Set on an event whose origin proof was accepted: only its viewer header is believed. A symbol, so
 * it survives a copy of the event (`{ ...event }`) and nothing a client sends can set it.
 */
const throughCloudFront = Symbol('dogu.throughCloudFront');

/** Records that `event` came through CloudFront (its origin proof was checked by the handler). */
export const markThroughCloudFront = (event: object) => {
  Object.defineProperty(event, throughCloudFront, { value: true, enumerable: true });
};

export const cameThroughCloudFront = (event: object) =>
  (event as { [throughCloudFront]?: boolean })[throughCloudFront] === true;

/** An IPv4 or IPv6 address as CloudFront writes it; anything else is not used. */
const addressShape = /^[0-9a-fA-F:.]{2,45}$/;

export function viewerIpOf(event: Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'>): string {
  const sourceIp = event.requestContext?.http?.sourceIp ?? '';
  const viewer = event.headers?.[viewerIpHeader];
  if (viewer && cameThroughCloudFront(event) && addressShape.test(viewer)) return viewer;
  return sourceIp;
}

/** A host name with an optional port, as a Host header carries it. */
const hostShape = /^[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$/;

/** `https://<viewer's host>` for a request that came through CloudFront; undefined otherwise. */
export function viewerOriginOf(event: Pick<APIGatewayProxyEventV2, 'headers'>): string | undefined {
  const host = event.headers?.[viewerHostHeader];
  return host && cameThroughCloudFront(event) && hostShape.test(host) ? `https://${host}` : undefined;
}
