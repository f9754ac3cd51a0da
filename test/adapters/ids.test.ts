import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { uuidV7Hex, uuidV7Ids } from '../../shared/adapters/ids.ts';

const dashed = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

describe('uuidV7Ids', () => {
  it('gives prefixed RFC 9562 version 7 UUIDs without dashes, carrying the time', () => {
    const before = Date.now();
    const id = uuidV7Ids.next('aud');
    expect(id).toMatch(/^aud_[0-9a-f]{32}$/);
    const hex = id.slice(4);
    expect(validate(dashed(hex))).toBe(true);
    expect(version(dashed(hex))).toBe(7);
    expect(Number.parseInt(hex.slice(16, 17), 16) & 0xc).toBe(0x8); // variant 10xx
    const msecs = Number.parseInt(hex.slice(0, 12), 16);
    expect(msecs).toBeGreaterThanOrEqual(before);
    expect(msecs).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('is strictly increasing within one millisecond and across many pool refills', () => {
    const ids = Array.from({ length: 5_000 }, () => uuidV7Hex(1_800_000_000_000));
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    expect(new Set(Array.from({ length: 5_000 }, () => uuidV7Hex())).size).toBe(5_000);
  });
});
