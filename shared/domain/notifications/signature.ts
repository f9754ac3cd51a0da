/**
 * The webhook signature (docs/decisions/0032-webhook-signature.md), as Stripe and Slack sign:
 *   Dogu-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
 * A receiver recomputes v1 over the raw body, compares in constant time and refuses a `t` older
 * than its replay window (5 minutes recommended). Several v1 entries may appear while a secret rotates.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const signatureHeader = 'Dogu-Signature';
export const defaultReplayWindowSeconds = 300;

export function signPayload(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** The receiver's side, published in docs/notifications.md and used by the tests. */
export function verifySignature(
  secret: string,
  body: string,
  header: string,
  nowSeconds: number,
  replayWindowSeconds = defaultReplayWindowSeconds,
): boolean {
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamp = Number(parts.find(([key]) => key === 't')?.[1]);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > replayWindowSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex'));
  return parts
    .filter(([key]) => key === 'v1')
    .some(([, value]) => {
      const given = Buffer.from(value ?? '');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
