/**
 * The revocation rule of service-account tokens (docs/authentication.md, "Revocation"): a change
 * to the trust policy or account applies to exchanges at once, tokens issued before it stop working
 * within the cache time, and a token issued after it works at once (it was refused for ~5 s).
 */
import { describe, expect, it } from 'vitest';
import { BindingChecker, type ServiceAccountBinding } from '../../shared/domain/identity/access-tokens.ts';
import type { ServiceAccount, TrustPolicy } from '../../shared/domain/identity/model.ts';
import { MemoryIdentityStore } from '../support/memory-identity-store.ts';

const at = '2026-11-26T00:00:00.000Z';
const account: ServiceAccount = {
  projectId: 'demo',
  id: 'sa_deployer',
  email: 'deployer@demo.sa.dogu',
  name: 'deployer',
  createdAt: at,
  updatedAt: at,
  tokenGeneration: 1,
};
const policy: TrustPolicy = {
  projectId: 'demo',
  serviceAccountId: 'sa_deployer',
  id: 'tp_1',
  issuer: 'https://idp.example',
  audience: 'dogu',
  boundClaims: [{ key: 'sub', pattern: 'repo:acme/*' }],
  createdAt: at,
  updatedAt: at,
  generation: 100,
};
const binding = (policyGeneration: number, tokenGeneration = 1): ServiceAccountBinding => ({
  projectId: 'demo',
  serviceAccountId: 'sa_deployer',
  trustPolicyId: 'tp_1',
  tokenGeneration,
  policyGeneration,
});

async function setUp() {
  const identities = new MemoryIdentityStore();
  await identities.saveServiceAccount(account, true);
  await identities.saveTrustPolicy(policy);
  const clock = { time: Date.parse(at), now: () => new Date(clock.time) };
  return { identities, clock, checker: new BindingChecker(identities, 5_000, clock) };
}

describe('BindingChecker', () => {
  it('accepts a token exchanged right after its policy changed, and refuses the older token', async () => {
    const { identities, clock, checker } = await setUp();
    expect(await checker.isCurrent(binding(100))).toBe(true); // remembered: generation 100
    await identities.saveTrustPolicy({ ...policy, generation: 101 });
    clock.time += 1_000;
    expect(await checker.isCurrent(binding(101))).toBe(true);
    expect(await checker.isCurrent(binding(100))).toBe(false);
  });

  it('accepts a token exchanged after the account was enabled again or its tokens revoked', async () => {
    const { identities, clock, checker } = await setUp();
    await identities.saveServiceAccount({ ...account, disabled: true }, false);
    expect(await checker.isCurrent(binding(100))).toBe(false); // remembered: disabled
    await identities.saveServiceAccount({ ...account, tokenGeneration: 2 }, false);
    clock.time += 1_000;
    expect(await checker.isCurrent(binding(100, 2))).toBe(true);
    expect(await checker.isCurrent(binding(100, 1))).toBe(false);
  });

  it('lets tokens issued before a change work at most for the cache time', async () => {
    const { identities, clock, checker } = await setUp();
    expect(await checker.isCurrent(binding(100))).toBe(true);
    await identities.saveTrustPolicy({ ...policy, generation: 101 });
    clock.time += 4_999;
    expect(await checker.isCurrent(binding(100))).toBe(true);
    clock.time += 1;
    expect(await checker.isCurrent(binding(100))).toBe(false);
  });

  it('reads the store for a token newer than it remembers only, not for every refused token', async () => {
    const { identities, checker } = await setUp();
    let reads = 0;
    const read = identities.getTrustPolicy.bind(identities);
    identities.getTrustPolicy = (projectId: string, policyId: string) => {
      reads++;
      return read(projectId, policyId);
    };
    await checker.isCurrent(binding(100));
    for (let i = 0; i < 5; i++) expect(await checker.isCurrent(binding(99))).toBe(false);
    expect(reads).toBe(1);
  });
});
