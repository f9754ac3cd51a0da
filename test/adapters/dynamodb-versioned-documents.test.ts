/**
 * Versions and publications of actions and views through the one adapter both kinds share, on the
 * embedded DynamoDB: immutable versions, newest first, a publication per environment, and a
 * document's removal that leaves every other document (of either kind) alone.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from '../../local/embedded-dynamodb.ts';
import { DynamoDbStore } from '../../shared/adapters/dynamodb/dynamodb-store.ts';
import { AlreadyExistsError } from '../../shared/domain/ports.ts';
import type { ActionVersion, Publication } from '../../shared/domain/versions.ts';
import type { ViewPublication, ViewVersion } from '../../shared/domain/views/store.ts';
import { tempDir } from '../support/runtime.ts';

let dynamo: EmbeddedDynamoDb;
let dir: Awaited<ReturnType<typeof tempDir>>;
let store: DynamoDbStore;
beforeAll(async () => {
  dir = await tempDir('versioned-documents');
  dynamo = await startEmbeddedDynamoDb(join(dir.path, 'db'), 'dogu');
  store = new DynamoDbStore(dynamo.client, 'dogu');
});
afterAll(async () => {
  await dynamo?.close();
  await dir?.remove();
});

const at = '2026-11-28T10:00:00.000Z';
const author = { id: 'u1', email: 'dev@example.com' };
const actionVersion = (actionId: string, version: number): ActionVersion => ({
  projectId: 'p1',
  actionId,
  version,
  definition: { name: `${actionId} v${version}` } as ActionVersion['definition'],
  author,
  createdAt: at,
  message: `save ${version}`,
});
const viewVersion = (viewId: string, version: number): ViewVersion => ({
  projectId: 'p1',
  viewId,
  version,
  definition: { name: `${viewId} v${version}` } as ViewVersion['definition'],
  author,
  createdAt: at,
  message: `save ${version}`,
});
const actionPublication = (actionId: string, environmentId: string, version: number): Publication => ({
  projectId: 'p1',
  actionId,
  environmentId,
  version,
  publishedBy: author,
  publishedAt: at,
});
const viewPublication = (viewId: string, environmentId: string, version: number): ViewPublication => ({
  projectId: 'p1',
  viewId,
  environmentId,
  version,
  publishedBy: author,
  publishedAt: at,
});

describe('versioned documents on DynamoDB', () => {
  it('keeps versions immutable and lists them newest first, past ten versions', async () => {
    for (const version of [1, 2, 3, 10, 11])
      await store.actionVersions.createVersion(actionVersion('orders', version));
    await expect(store.actionVersions.createVersion(actionVersion('orders', 2))).rejects.toBeInstanceOf(
      AlreadyExistsError,
    );
    expect((await store.actionVersions.listVersions('p1', 'orders')).map((v) => v.version)).toEqual([
      11, 10, 3, 2, 1,
    ]);
    expect(await store.actionVersions.getVersion('p1', 'orders', 3)).toEqual(actionVersion('orders', 3));
    expect(await store.actionVersions.getVersion('p1', 'orders', 4)).toBeUndefined();
  });

  it('keeps one publication per environment, replaced and deleted', async () => {
    await store.actionVersions.putPublication(actionPublication('orders', 'dev', 1));
    await store.actionVersions.putPublication(actionPublication('orders', 'prod', 1));
    await store.actionVersions.putPublication(actionPublication('orders', 'dev', 3));
    expect(await store.actionVersions.getPublication('p1', 'orders', 'dev')).toEqual(
      actionPublication('orders', 'dev', 3),
    );
    const listed = await store.actionVersions.listPublications('p1', 'orders');
    expect(listed.map((p) => [p.environmentId, p.version]).sort()).toEqual([
      ['dev', 3],
      ['prod', 1],
    ]);
    expect(await store.actionVersions.deletePublication('p1', 'orders', 'prod')).toBe(true);
    expect(await store.actionVersions.deletePublication('p1', 'orders', 'prod')).toBe(false);
    expect(await store.actionVersions.getPublication('p1', 'orders', 'prod')).toBeUndefined();
  });

  it('keeps views apart from actions of the same id, and a view removed takes only its own', async () => {
    await store.viewVersions.createVersion(viewVersion('orders', 1));
    await store.viewVersions.createVersion(viewVersion('orders-2', 1));
    await store.viewVersions.putPublication(viewPublication('orders', 'dev', 1));
    await store.viewVersions.putPublication(viewPublication('orders-2', 'dev', 1));
    expect((await store.viewVersions.listVersions('p1', 'orders')).map((v) => v.viewId)).toEqual(['orders']);
    expect(await store.viewVersions.getVersion('p1', 'orders', 1)).toEqual(viewVersion('orders', 1));

    await store.viewVersions.deleteAll('p1', 'orders');
    expect(await store.viewVersions.listVersions('p1', 'orders')).toEqual([]);
    expect(await store.viewVersions.listPublications('p1', 'orders')).toEqual([]);
    // The other view, and the action with the same id, are untouched.
    expect(await store.viewVersions.getVersion('p1', 'orders-2', 1)).toEqual(viewVersion('orders-2', 1));
    expect(await store.viewVersions.getPublication('p1', 'orders-2', 'dev')).toEqual(
      viewPublication('orders-2', 'dev', 1),
    );
    expect(await store.actionVersions.listVersions('p1', 'orders')).toHaveLength(5);
    expect(await store.actionVersions.getPublication('p1', 'orders', 'dev')).toBeDefined();
  });
});
