/** The DynamoDB store against the embedded DynamoDB (dynalite on disk). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from '../../local/embedded-dynamodb.ts';
import { DynamoDbCoordination } from '../../shared/adapters/dynamodb/dynamodb-coordination.ts';
import { DynamoDbExecutionStore } from '../../shared/adapters/dynamodb/dynamodb-execution-store.ts';
import { DynamoDbStore } from '../../shared/adapters/dynamodb/dynamodb-store.ts';
import type { Execution } from '../../shared/domain/model.ts';
import { AlreadyExistsError } from '../../shared/domain/ports.ts';
import { tempDir } from '../support/runtime.ts';

let dynamo: EmbeddedDynamoDb;
let store: DynamoDbStore;
let dir: Awaited<ReturnType<typeof tempDir>>;
const now = '2026-11-22T00:00:00.000Z';

beforeAll(async () => {
  dir = await tempDir('store');
  dynamo = await startEmbeddedDynamoDb(dir.path, 'dogu');
  store = new DynamoDbStore(dynamo.client, 'dogu');
});
afterAll(async () => {
  await dynamo?.close();
  await dir?.remove();
});

describe('DynamoDbStore', () => {
  it('creates a project once; a second create is refused and changes nothing', async () => {
    await store.createProject({ id: 'p1', name: 'First', createdAt: now });
    await expect(store.createProject({ id: 'p1', name: 'Second', createdAt: now })).rejects.toBeInstanceOf(
      AlreadyExistsError,
    );
    expect(await store.getProject('p1')).toEqual({ id: 'p1', name: 'First', createdAt: now });
  });

  it('returns undefined for what does not exist, and records without key attributes', async () => {
    expect(await store.getAction('p1', 'missing')).toBeUndefined();
    await store.createEnvironment({ projectId: 'p1', id: 'dev', name: 'Dev', createdAt: now });
    expect(await store.getEnvironment('p1', 'dev')).toEqual({
      projectId: 'p1',
      id: 'dev',
      name: 'Dev',
      createdAt: now,
    });
  });

  it('keeps e-mail addresses unique, case-insensitively, under concurrent sign-ups', async () => {
    const attempts = await Promise.allSettled(
      ['a', 'b', 'c', 'd'].map((suffix, i) =>
        store.createUser({
          id: `usr_${suffix}`,
          email: i % 2 ? 'Ann@Example.com' : 'ann@example.com',
          name: 'Ann',
          createdAt: now,
        }),
      ),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    for (const attempt of attempts.filter((a) => a.status === 'rejected')) {
      expect((attempt as PromiseRejectedResult).reason).toBeInstanceOf(AlreadyExistsError);
    }
    const winner = (attempts.find((a) => a.status === 'fulfilled') as PromiseFulfilledResult<{ id: string }>)
      .value;
    expect((await store.getUserByEmail('ANN@example.com'))?.id).toBe(winner.id);
  });

  it('claims a marker exactly once', async () => {
    const coordination = new DynamoDbCoordination(dynamo.client, 'dogu');
    const claims = await Promise.all([1, 2, 3].map(() => coordination.claimMarker('seed:x', now)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await coordination.hasMarker('seed:x')).toBe(true);
    expect(await coordination.hasMarker('seed:y')).toBe(false);
  });

  it('stores and reads an execution', async () => {
    const execution: Execution = {
      id: 'exe_1',
      projectId: 'p1',
      environmentId: 'dev',
      actionId: 'a1',
      actionVersion: 3,
      status: 'succeeded',
      principal: { kind: 'user', id: 'usr_a', email: 'ann@example.com' },
      via: 'public_api',
      arguments: { status: 'paid', limit: null },
      startedAt: now,
      finishedAt: now,
      durationMs: 0,
      statements: [{ title: 'Orders', status: 'succeeded', rowCount: 2, messages: [] }],
    };
    const executions = new DynamoDbExecutionStore(dynamo.client, 'dogu');
    await executions.putExecution(execution);
    expect(await executions.getExecution('exe_1')).toEqual(execution);
  });
});
