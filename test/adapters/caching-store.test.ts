import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from '../../local/embedded-dynamodb.ts';
import { CachingStore } from '../../shared/adapters/caching-store.ts';
import { DelegatingStore } from '../../shared/adapters/delegating-store.ts';
import { DynamoDbStore } from '../../shared/adapters/dynamodb/dynamodb-store.ts';
import type { Action, Project } from '../../shared/domain/model.ts';
import { tempDir } from '../support/runtime.ts';

/** Counts reads that reach the real store underneath the cache. */
class CountingStore extends DelegatingStore {
  reads = 0;
  override getProject(projectId: string): Promise<Project | undefined> {
    this.reads++;
    return super.getProject(projectId);
  }
  override getAction(projectId: string, actionId: string): Promise<Action | undefined> {
    this.reads++;
    return super.getAction(projectId, actionId);
  }
}

let dynamo: EmbeddedDynamoDb;
let dir: Awaited<ReturnType<typeof tempDir>>;
let counting: CountingStore;
beforeAll(async () => {
  dir = await tempDir('cache');
  dynamo = await startEmbeddedDynamoDb(dir.path, 'dogu');
  counting = new CountingStore(new DynamoDbStore(dynamo.client, 'dogu'));
});
afterAll(async () => {
  await dynamo?.close();
  await dir?.remove();
});

const action = (version: number): Action => ({
  projectId: 'p',
  id: 'a',
  name: `v${version}`,
  description: '',
  kind: 'sql',
  dataSourceId: 'ds',
  statements: [{ title: 't', sql: 'SELECT 1' }],
  parameters: [],
  version,
  createdAt: 'now',
  updatedAt: 'now',
});

describe('CachingStore', () => {
  it('reads a definition once, shares a cold load between concurrent readers, and sees its own writes', async () => {
    const store = new CachingStore(counting, 60_000);
    await store.putAction(action(1));
    counting.reads = 0;
    const [a, b] = await Promise.all([store.getAction('p', 'a'), store.getAction('p', 'a')]);
    expect(a?.version).toBe(1);
    expect(b?.version).toBe(1);
    await store.getAction('p', 'a');
    expect(counting.reads).toBe(1);

    await store.putAction(action(2));
    expect((await store.getAction('p', 'a'))?.version).toBe(2);
    expect(counting.reads).toBe(2);
  });

  it('caches a miss too, until something is created under that key', async () => {
    const store = new CachingStore(counting, 60_000);
    counting.reads = 0;
    expect(await store.getProject('later')).toBeUndefined();
    expect(await store.getProject('later')).toBeUndefined();
    expect(counting.reads).toBe(1);
    await store.createProject({ id: 'later', name: 'Later', createdAt: 'now' });
    expect((await store.getProject('later'))?.name).toBe('Later');
  });

  it('reads again after the time to live (changes made by other processes)', async () => {
    let now = 0;
    const store = new CachingStore(counting, 5_000, () => now);
    const other = new DynamoDbStore(dynamo.client, 'dogu'); // another container writing
    await other.putAction(action(3));
    expect((await store.getAction('p', 'a'))?.version).toBe(3);
    await other.putAction(action(4));
    now = 4_999;
    expect((await store.getAction('p', 'a'))?.version).toBe(3);
    now = 5_001;
    expect((await store.getAction('p', 'a'))?.version).toBe(4);
  });

  it('does not keep a failed read', async () => {
    let fail = true;
    const flaky = new (class extends DelegatingStore {
      override getProject(projectId: string) {
        return fail ? Promise.reject(new Error('throttled')) : super.getProject(projectId);
      }
    })(counting);
    const store = new CachingStore(flaky, 60_000);
    await expect(store.getProject('p')).rejects.toThrow('throttled');
    fail = false;
    await expect(store.getProject('p')).resolves.toBeUndefined();
  });

  it('caches the version an environment runs and that version, and sees its own publications at once', async () => {
    const inner = new DynamoDbStore(dynamo.client, 'dogu');
    const other = new DynamoDbStore(dynamo.client, 'dogu'); // another container writing
    const store = new CachingStore(inner, 60_000);
    const author = { id: 'u', email: 'u@example.com' };
    const version = (n: number) => ({
      projectId: 'p',
      actionId: 'versioned',
      version: n,
      definition: action(n) as never,
      author,
      createdAt: 'now',
      message: `v${n}`,
    });
    const publication = (n: number) => ({
      projectId: 'p',
      actionId: 'versioned',
      environmentId: 'prod',
      version: n,
      publishedBy: author,
      publishedAt: 'now',
    });
    await store.actionVersions.createVersion(version(1));
    await store.actionVersions.createVersion(version(2));
    await store.actionVersions.putPublication(publication(1));
    expect((await store.actionVersions.getPublication('p', 'versioned', 'prod'))?.version).toBe(1);
    // Another container publishing is seen only after the time to live; this store's own write at once.
    await other.actionVersions.putPublication(publication(2));
    expect((await store.actionVersions.getPublication('p', 'versioned', 'prod'))?.version).toBe(1);
    await store.actionVersions.putPublication(publication(2));
    expect((await store.actionVersions.getPublication('p', 'versioned', 'prod'))?.version).toBe(2);
    expect(await store.actionVersions.deletePublication('p', 'versioned', 'prod')).toBe(true);
    expect(await store.actionVersions.getPublication('p', 'versioned', 'prod')).toBeUndefined();
    expect((await store.actionVersions.getVersion('p', 'versioned', 2))?.message).toBe('v2');
    // Views' versions are not cached: what another container publishes is read at once.
    const { actionId: _actionId, ...rest } = publication(1);
    await other.viewVersions.putPublication({ ...rest, viewId: 'v' });
    expect((await store.viewVersions.getPublication('p', 'v', 'prod'))?.version).toBe(1);
  });
});
