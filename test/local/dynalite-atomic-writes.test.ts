/**
 * The embedded store writes an item and its index entries in one LevelDB batch (decision 0120):
 * a process killed mid-write cannot leave an item its index misses, or an index entry with no item.
 * Checked on dynalite itself, in this process, with the patch the store's worker applies and a
 * look at every write that reaches LevelDB.
 */
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteItemCommand,
  DynamoDBClient,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeItemWritesAtomic } from '../../local/dynalite-atomic-writes.mjs';

const require = createRequire(import.meta.url);

type Write = { method: string; ops: string[] };
interface Level {
  put: (...args: unknown[]) => unknown;
  del: (...args: unknown[]) => unknown;
  batch: (...args: unknown[]) => unknown;
}

let server: { listen: (port: number, host: string, cb: () => void) => void; close: () => void } & {
  address(): AddressInfo;
};
let client: DynamoDBClient;
const writes: Write[] = [];
const TableName = 'atomic';

beforeAll(async () => {
  const db = makeItemWritesAtomic(require('dynalite/db'));
  const create = db.create;
  let level: Level | undefined;
  db.create = (options: unknown) => {
    const store = create(options);
    level = store.db;
    return store;
  };
  server = require('dynalite')({ createTableMs: 0 });
  db.create = create;
  for (const method of ['put', 'del', 'batch'] as const) {
    const original = level![method];
    level![method] = function (this: unknown, ...args: unknown[]) {
      const [first] = args as [string | { type: string; key: string }[]];
      const ops = Array.isArray(first) ? first.map((op) => `${op.type} ${op.key.split('~')[0]}`) : [first];
      writes.push({ method, ops });
      return original.apply(this, args);
    };
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${server.address().port}`,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await client.send(
    new CreateTableCommand({
      TableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk'].map((AttributeName) => ({
        AttributeName,
        AttributeType: 'S',
      })),
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'gsi1',
          KeySchema: [
            { AttributeName: 'gsi1pk', KeyType: 'HASH' },
            { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
    }),
  );
});
afterAll(() => {
  client?.destroy();
  server?.close();
});

const item = (id: string, status?: string, note = '') => ({
  pk: { S: 'PROJECT#p' },
  sk: { S: `RESERVATION#${id}` },
  ...(status ? { gsi1pk: { S: `STATUS#${status}` }, gsi1sk: { S: id } } : {}),
  note: { S: note },
});

async function indexed(status: string): Promise<string[]> {
  const { Items = [] } = await client.send(
    new QueryCommand({
      TableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :s',
      ExpressionAttributeValues: { ':s': { S: `STATUS#${status}` } },
    }),
  );
  return Items.map((i) => `${i.sk!.S} ${i.note!.S}`);
}

/** The LevelDB writes one request made. */
async function writesOf(request: () => Promise<unknown>): Promise<Write[]> {
  writes.length = 0;
  await request();
  return writes.splice(0);
}

describe('item writes of the embedded store', () => {
  it('put a new item and its index entry in one batch', async () => {
    expect(
      await writesOf(() => client.send(new PutItemCommand({ TableName, Item: item('a', 'scheduled') }))),
    ).toEqual([{ method: 'batch', ops: ['put index-global', 'put item-atomic'] }]);
    expect(await indexed('scheduled')).toEqual(['RESERVATION#a ']);
  });

  it('move an item to another index entry in one batch (delete, put, item)', async () => {
    expect(
      await writesOf(() =>
        client.send(new PutItemCommand({ TableName, Item: item('a', 'running', 'claimed') })),
      ),
    ).toEqual([{ method: 'batch', ops: ['del index-global', 'put index-global', 'put item-atomic'] }]);
    expect(await indexed('scheduled')).toEqual([]);
    expect(await indexed('running')).toEqual(['RESERVATION#a claimed']);
  });

  it('drop the index entry with the update that removes its keys', async () => {
    expect(
      await writesOf(() =>
        client.send(
          new UpdateItemCommand({
            TableName,
            Key: { pk: { S: 'PROJECT#p' }, sk: { S: 'RESERVATION#a' } },
            UpdateExpression: 'SET note = :n REMOVE gsi1pk, gsi1sk',
            ExpressionAttributeValues: { ':n': { S: 'done' } },
          }),
        ),
      ),
    ).toEqual([{ method: 'batch', ops: ['del index-global', 'put item-atomic'] }]);
    expect(await indexed('running')).toEqual([]);
  });

  it('delete an item with its index entry in one batch', async () => {
    await client.send(new PutItemCommand({ TableName, Item: item('b', 'running') }));
    expect(
      await writesOf(() =>
        client.send(
          new DeleteItemCommand({ TableName, Key: { pk: { S: 'PROJECT#p' }, sk: { S: 'RESERVATION#b' } } }),
        ),
      ),
    ).toEqual([{ method: 'batch', ops: ['del index-global', 'del item-atomic'] }]);
    expect(await indexed('running')).toEqual([]);
  });

  it('write each item of a batch write with its own index entries, whole', async () => {
    const made = await writesOf(() =>
      client.send(
        new BatchWriteItemCommand({
          RequestItems: {
            [TableName]: [
              { PutRequest: { Item: item('c', 'scheduled', 'c') } },
              { PutRequest: { Item: item('d', 'scheduled', 'd') } },
              { PutRequest: { Item: item('e') } },
            ],
          },
        }),
      ),
    );
    expect(made.map((write) => write.method)).toEqual(['batch', 'batch', 'batch']);
    expect(made.map((write) => write.ops).sort()).toEqual([
      ['put index-global', 'put item-atomic'],
      ['put index-global', 'put item-atomic'],
      ['put item-atomic'],
    ]);
    expect(await indexed('scheduled')).toEqual(['RESERVATION#c c', 'RESERVATION#d d']);
  });

  it('refuses a dynalite whose internals moved, rather than writing non-atomically', () => {
    expect(() => makeItemWritesAtomic({ create: () => ({}) })).toThrow(/decision 0120/);
  });
});
