/**
 * The embedded DynamoDB: dynalite in a worker thread of this process, on
 * 127.0.0.1, persisted in a LevelDB directory. Tables are created from the
 * same schema the CDK stack uses.
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClientConfig,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../shared/adapters/dynamodb/client.ts';
import { tableSchema } from '../shared/adapters/dynamodb/table-schema.ts';

export interface EmbeddedDynamoDb {
  endpoint: string;
  client: DynamoDBDocumentClient;
  /** Called if the store stops unexpectedly: without it the runtime cannot go on. */
  onFailure(listener: (error: Error) => void): void;
  close(): Promise<void>;
}

type WorkerMessage = { type: 'listening'; port: number } | { type: 'failed' | 'closed'; message?: string };

export async function startEmbeddedDynamoDb(directory: string, tableName: string): Promise<EmbeddedDynamoDb> {
  const worker = new Worker(new URL('./dynalite-worker.mjs', import.meta.url), {
    workerData: { path: directory },
  });
  const failureListeners: ((error: Error) => void)[] = [];
  let closing = false;
  const fail = (error: Error) => {
    if (!closing) for (const listener of failureListeners) listener(error);
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`The embedded DynamoDB stopped (exit code ${code}).`)));
  const [started] = (await Promise.race([
    once(worker, 'message'),
    once(worker, 'error').then(([error]) => {
      throw new Error(`The embedded DynamoDB could not start: ${(error as Error).message}`);
    }),
  ])) as [WorkerMessage];
  if (started.type !== 'listening')
    throw new Error(`The embedded DynamoDB could not start: ${started.message}`);
  worker.on('message', (message: WorkerMessage) => {
    if (message.type === 'failed') fail(new Error(`The embedded DynamoDB failed: ${message.message}`));
  });
  const endpoint = `http://127.0.0.1:${started.port}`;
  const client = createDocumentClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    httpAuthSchemes: [unsignedSigV4],
  });
  await ensureTable(client, tableName);
  return {
    endpoint,
    client,
    onFailure: (listener) => failureListeners.push(listener),
    async close() {
      closing = true;
      client.destroy();
      worker.postMessage('close');
      // LevelDB is closed by the worker before it answers; then the thread can go.
      await once(worker, 'message');
      await worker.terminate();
    },
  };
}

/**
 * dynalite checks that a request carries a SigV4 header, not the signature. Computing one (SHA-256 of
 * the body, HMAC chain) cost ~3 % of the runtime's CPU under load for nothing (decision 0060): the
 * worker is this process's own, on 127.0.0.1. A fixed, well-formed header instead.
 */
const unsignedSigV4: NonNullable<DynamoDBClientConfig['httpAuthSchemes']>[number] = {
  schemeId: 'aws.auth#sigv4',
  identityProvider: () => async () =>
    ({ accessKeyId: 'local', secretAccessKey: 'local' }) as { expiration?: Date },
  signer: {
    async sign(request) {
      const headers = (request as { headers: Record<string, string> }).headers;
      headers['x-amz-date'] = '20000101T000000Z';
      headers.authorization =
        'AWS4-HMAC-SHA256 Credential=local/20000101/local/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=0';
      return request;
    },
  },
};

async function ensureTable(client: DynamoDBDocumentClient, tableName: string): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const attributes = new Set<string>([tableSchema.partitionKey, tableSchema.sortKey]);
  for (const index of tableSchema.indexes) attributes.add(index.partitionKey).add(index.sortKey);
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: tableSchema.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableSchema.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: tableSchema.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  // dynalite answers CreateTable with CREATING and turns the table ACTIVE in a later write; a put
  // that arrives first (a busy machine) is refused as "resource not found".
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === 'ACTIVE') return;
    if (Date.now() > deadline)
      throw new Error(`The embedded table ${tableName} did not become active in 30 s.`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
