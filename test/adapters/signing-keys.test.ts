/** The IdP key ring: retired keys stay published exactly as long as tokens they signed may live. */
import { describe, expect, it } from 'vitest';
import {
  SigningKeyRing,
  type SigningKeyStore,
  type StoredSigningKey,
} from '../../shared/adapters/idp/signing-keys.ts';

function memoryStore(): SigningKeyStore & { keys: StoredSigningKey[] } {
  const store = {
    keys: [] as StoredSigningKey[],
    load: async () => store.keys,
    save: async (keys: StoredSigningKey[]) => {
      store.keys = keys;
    },
  };
  return store;
}

describe('SigningKeyRing', () => {
  it('refuses to sign without keys unless it may create the first one', async () => {
    const clock = { now: () => new Date('2030-01-01T00:00:00Z') };
    await expect(new SigningKeyRing(memoryStore(), clock).current()).rejects.toThrow(/no signing key/);
    const store = memoryStore();
    const { kid } = await new SigningKeyRing(store, clock, { createIfEmpty: true }).current();
    expect(store.keys.map((key) => key.kid)).toEqual([kid]);
  });

  it('publishes a retired key until its tokens have expired, then drops it at the next rotation', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const clock = { now: () => new Date(now) };
    const store = memoryStore();
    const ring = new SigningKeyRing(store, clock, { createIfEmpty: true, reloadMs: 0 });
    const first = (await ring.current()).kid;
    const { kid: second } = await ring.rotate();
    expect((await ring.publicKeys()).map((key) => key.kid)).toEqual([second, first]);

    now += ring.retentionMs - 1;
    expect((await ring.publicKeys()).map((key) => key.kid)).toEqual([second, first]);
    now += 1;
    expect((await ring.publicKeys()).map((key) => key.kid)).toEqual([second]);

    const { kid: third } = await ring.rotate();
    expect(store.keys.map((key) => key.kid)).toEqual([third, second]);
    expect((await ring.current()).kid).toBe(third);
  });
});
