/** The bridge's configuration is checked before it listens, each problem named by its field. */
import { describe, expect, it } from 'vitest';
import { bridgeConfigFrom } from '../../cli/bridge/config.ts';
import { ReplayGuard } from '../../cli/bridge/replay-guard.ts';

const valid = {
  id: 'office',
  issuer: 'https://dogu.example.com/idp',
  allow: ['DB.internal:5432', '[::1]:8080'],
};
const pemEnv = { DOGU_BRIDGE_TLS_CERT: 'cert-pem', DOGU_BRIDGE_TLS_KEY: 'key-pem' };

describe('bridge configuration', () => {
  it('takes the certificate from the environment and normalises the allow-list', async () => {
    const config = await bridgeConfigFrom(valid, '/nowhere', pemEnv);
    expect(config).toMatchObject({
      port: 8443,
      timeoutMs: 30_000,
      allow: ['db.internal:5432', '[::1]:8080'],
      certificate: { cert: 'cert-pem', key: 'key-pem' },
    });
  });

  it('names every field that is wrong, and needs a certificate', async () => {
    await expect(
      bridgeConfigFrom(
        { ...valid, id: 'Office!', allow: ['db.internal'], timeoutMs: 5, extra: 1 },
        '/nowhere',
        pemEnv,
      ),
    ).rejects.toThrow(
      /id: must be 1-63[\s\S]*allow\.0: must be host:port[\s\S]*timeoutMs:[\s\S]*Unrecognized key/,
    );
    await expect(bridgeConfigFrom(valid, '/nowhere', {})).rejects.toThrow(/needs a TLS certificate/);
  });
});

describe('replay guard', () => {
  it('admits a jti once until it expires, and refuses rather than forgets when full', () => {
    const guard = new ReplayGuard(2);
    expect(guard.admit('a', 100, 50)).toBe(true);
    expect(guard.admit('a', 100, 50)).toBe(false);
    expect(guard.admit('b', 60, 50)).toBe(true);
    expect(guard.admit('c', 100, 55)).toBe(false); // full, nothing expired yet
    expect(guard.admit('c', 100, 70)).toBe(true); // b expired and was pruned
    expect(guard.admit('a', 100, 70)).toBe(false);
  });
});
