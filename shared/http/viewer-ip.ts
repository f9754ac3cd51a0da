/**
 * The address of the person behind a request. Through CloudFront, API Gateway's `sourceIp` is an edge
 * server's; CloudFront's viewer-request function puts the viewer's in `x-dogu-viewer-ip`
 * (infra/console-hosting.ts) and the origin sends `x-dogu-origin-verify`. The header is trusted only
 * when that value matches DOGU_ORIGIN_VERIFY, so a caller going to the API directly cannot choose the
 * address the audit records (decision 0053).
 */
import { timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export const originVerifyEnv = 'DOGU_ORIGIN_VERIFY';
export const viewerIpHeader = 'x-dogu-viewer-ip';
export const originVerifyHeader = 'x-dogu-origin-verify';

/** Compares a presented secret without leaking, through timing, how much of it matched. */
export const sameSecret = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** An IPv4 or IPv6 address as CloudFront writes it; anything else is not used. */
const addressShape = /^[0-9a-fA-F:.]{2,45}$/;

export function viewerIpOf(
  event: Pick<APIGatewayProxyEventV2, 'headers' | 'requestContext'>,
  expected: string | undefined = process.env[originVerifyEnv],
): string {
  const sourceIp = event.requestContext?.http?.sourceIp ?? '';
  const headers = event.headers ?? {};
  const viewer = headers[viewerIpHeader];
  const proof = headers[originVerifyHeader];
  if (expected && proof && viewer && sameSecret(proof, expected) && addressShape.test(viewer)) return viewer;
  return sourceIp;
}
