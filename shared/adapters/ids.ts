import { randomFillSync } from 'node:crypto';
import type { IdGenerator } from '../domain/ports.ts';

/**
 * Random bytes are taken from a pool refilled 4 KB at a time: uuid's own v7 asks WebCrypto's
 * getRandomValues for 16 bytes per id, which cost a token exchange more than its HMAC.
 */
const pool = Buffer.alloc(16 * 256);
let pooled = 0;
/** The last id's millisecond and 32-bit counter (RFC 9562 6.2, method 1 as in uuid's v7). */
let lastMsecs = Number.NEGATIVE_INFINITY;
let seq = 0;

/** A UUIDv7 as 32 lowercase hex digits: strictly increasing within this process, like uuid's v7. */
export function uuidV7Hex(now = Date.now()): string {
  if (pooled === 0) randomFillSync(pool);
  const at = pooled;
  pooled = (pooled + 16) % pool.length;
  if (now > lastMsecs) {
    seq = ((pool[at + 6]! & 0x7f) << 24) | (pool[at + 7]! << 16) | (pool[at + 8]! << 8) | pool[at + 9]!;
    lastMsecs = now;
  } else {
    seq = (seq + 1) | 0;
    if (seq === 0) lastMsecs++;
  }
  const msecs = lastMsecs;
  const bytes = Buffer.allocUnsafe(16);
  bytes[0] = (msecs / 0x10000000000) & 0xff;
  bytes[1] = (msecs / 0x100000000) & 0xff;
  bytes[2] = (msecs / 0x1000000) & 0xff;
  bytes[3] = (msecs / 0x10000) & 0xff;
  bytes[4] = (msecs / 0x100) & 0xff;
  bytes[5] = msecs & 0xff;
  bytes[6] = 0x70 | ((seq >>> 28) & 0x0f);
  bytes[7] = (seq >>> 20) & 0xff;
  bytes[8] = 0x80 | ((seq >>> 14) & 0x3f);
  bytes[9] = (seq >>> 6) & 0xff;
  bytes[10] = ((seq << 2) & 0xff) | (pool[at + 10]! & 0x03);
  pool.copy(bytes, 11, at + 11, at + 16);
  return bytes.toString('hex');
}

/** UUIDv7 (time-ordered) without dashes, behind a readable prefix: `exe_0193…`. */
export const uuidV7Ids: IdGenerator = {
  next: (prefix) => `${prefix}_${uuidV7Hex()}`,
};

export const systemClock = { now: () => new Date() };
