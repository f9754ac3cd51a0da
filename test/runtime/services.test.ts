/**
 * The composition root (shared/runtime/services.ts, decision 0022): a handler sees the core services
 * and the groups it composed, nothing else, in both runtimes; on AWS the core and each group are
 * built once per container however many compositions ask; the connector catalog never runs.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActionEngines } from '../../shared/domain/ports.ts';
import type { ServiceGroup, Services } from '../../shared/runtime/services.ts';

type ServicesModule = typeof import('../../shared/runtime/services.ts');

/** A fresh copy of the module per test: its caches are per container. */
async function freshServices(): Promise<ServicesModule> {
  vi.resetModules();
  return import('../../shared/runtime/services.ts');
}

const coreKeys = [
  'store',
  'executions',
  'identities',
  'reviews',
  'coordination',
  'definitions',
  'tokens',
  'audit',
  'clock',
  'ids',
  'settings',
  'oidc',
  'accounts',
  'viewRunLimit',
  'mcpOAuth',
  'mcpToolCallLimit',
];

function countingGroup(name: string, key: string) {
  const group = {
    builds: 0,
    name,
    pick: (services: Services) => ({ [key]: (services as unknown as Record<string, unknown>)[key] }),
    async createOnAws() {
      group.builds += 1;
      return { [key]: `${name} #${group.builds}` };
    },
  };
  return group as ServiceGroup<Record<string, string>> & { builds: number };
}

describe('on AWS (nothing provided)', () => {
  const secretsManager = mockClient(SecretsManagerClient);
  const saved = { ...process.env };

  beforeEach(() => {
    secretsManager.reset();
    secretsManager.on(GetSecretValueCommand).resolves({ SecretString: 'k'.repeat(64) });
    Object.assign(process.env, {
      DOGU_TABLE_NAME: 'dogu-test',
      DOGU_SIGNING_KEY_SECRET_ARN: 'arn:aws:secretsmanager:ap-northeast-1:123456789012:secret:signing',
      AWS_REGION: 'ap-northeast-1',
    });
  });
  afterEach(() => {
    process.env = { ...saved };
  });

  it('builds the core once and each group once per container, however many compositions ask', async () => {
    const { compose, getServices } = await freshServices();
    const a = countingGroup('a', 'alpha');
    const b = countingGroup('b', 'beta');
    const onlyA = await getServices(compose(a));
    const both = await getServices(compose(a, b));
    await Promise.all([getServices(compose(a)), getServices(compose(b, a))]);
    expect(a.builds).toBe(1);
    expect(b.builds).toBe(1);
    // The signing key is read once, for the core every composition shares.
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    expect(Object.keys(onlyA).sort()).toEqual([...coreKeys, 'alpha'].sort());
    expect(Object.keys(both).sort()).toEqual([...coreKeys, 'alpha', 'beta'].sort());
    expect(both.store).toBe(onlyA.store);
    expect(both.alpha).toBe('a #1');
  });

  it('tries a failed group again on the next request', async () => {
    const { compose, getServices } = await freshServices();
    let attempts = 0;
    const flaky: ServiceGroup<{ gamma: number }> = {
      name: 'flaky',
      pick: () => ({ gamma: 0 }),
      async createOnAws() {
        attempts += 1;
        if (attempts === 1) throw new Error('KMS unreachable');
        return { gamma: attempts };
      },
    };
    const composition = compose(flaky);
    await expect(getServices(composition)).rejects.toThrow('KMS unreachable');
    expect((await getServices(composition)).gamma).toBe(2);
  });
});

describe('in the embedded runtime (everything provided)', () => {
  const ran: string[] = [];
  const engines = {
    secretFields: () => ['password'],
    run: async () => {
      ran.push('run');
      return [];
    },
    testConnection: async () => {
      ran.push('test');
    },
  } as unknown as ActionEngines;
  const all = Object.fromEntries(
    [...coreKeys, 'secrets', 'idp', 'schedules', 'scheduler', 'jobs'].map((key) => [key, { key }]),
  ) as unknown as Services;

  it('gives a handler only the core and the groups it composed', async () => {
    const { compose, getServices, provideServices } = await freshServices();
    const { secretValues } = await import('../../shared/runtime/groups/secret-values.ts');
    provideServices(async () => ({ ...all, engines }));
    const core = await getServices();
    expect(Object.keys(core).sort()).toEqual([...coreKeys].sort());
    const withSecrets = await getServices(compose(secretValues));
    expect(Object.keys(withSecrets).sort()).toEqual([...coreKeys, 'secrets'].sort());
    expect(withSecrets.secrets).toBe(all.secrets);
  });

  it('lets the action engines run and the connector catalog only describe', async () => {
    const { compose, getServices, provideServices } = await freshServices();
    const { actionEngines } = await import('../../shared/runtime/groups/action-engines.ts');
    const { connectorCatalog } = await import('../../shared/runtime/groups/connector-catalog.ts');
    provideServices(async () => ({ ...all, engines }));
    ran.length = 0;
    const catalog = (await getServices(compose(connectorCatalog))).engines;
    expect(catalog.secretFields('postgresql')).toEqual(['password']);
    await expect(catalog.run({} as never)).rejects.toThrow(
      'This function does not run actions (it has no connector runtimes).',
    );
    await expect(catalog.testConnection('postgresql', {} as never)).rejects.toThrow('no connector runtimes');
    expect(ran).toEqual([]);
    const running = (await getServices(compose(actionEngines))).engines;
    await running.run({} as never);
    await running.testConnection('postgresql', {} as never);
    expect(ran).toEqual(['run', 'test']);
  });
});
