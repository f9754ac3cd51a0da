/**
 * The execution path on the AWS adapters (decision 0056): DynamoDbStore and the scheduling store on
 * a real DynamoDB-compatible server (dynalite), every request recorded in order; the payload store
 * on S3 through aws-sdk-client-mock, asserting the exact PutObject requests and the presigned link.
 *
 * - The `running` record (with its live-run marker) is written before the engine runs.
 * - A 7 MB Japanese result and a 1 MB argument end in S3 and are answered by link.
 * - The sweeper ends a run whose worker died; list paths read by Query, never Scan.
 */
import { join } from 'node:path';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from '../../local/embedded-dynamodb.ts';
import { S3PayloadStore } from '../../shared/adapters/blobs/s3-payload-store.ts';
import { DynamoDbExecutionStore } from '../../shared/adapters/dynamodb/dynamodb-execution-store.ts';
import { DynamoDbReviewStore } from '../../shared/adapters/dynamodb/dynamodb-review-store.ts';
import { DynamoDbSchedulingStore } from '../../shared/adapters/dynamodb/dynamodb-scheduling-store.ts';
import { DynamoDbStore } from '../../shared/adapters/dynamodb/dynamodb-store.ts';
import { uuidV7Ids } from '../../shared/adapters/ids.ts';
import { executeAction } from '../../shared/domain/execute-action.ts';
import type { ExecutionDeps } from '../../shared/domain/execution-deps.ts';
import { payloadKey } from '../../shared/domain/execution-payloads.ts';
import type { Action, Execution, Principal, StatementResult } from '../../shared/domain/model.ts';
import type { ActionEngines, EngineRun } from '../../shared/domain/ports.ts';
import { endFailedJob, sweepAbandonedWork } from '../../shared/domain/scheduling/abandoned-work.ts';
import type { SchedulingDeps } from '../../shared/domain/scheduling/deps.ts';
import { executionBody } from '../../shared/http/execution-response.ts';
import { tempDir } from '../support/runtime.ts';

const table = 'dogu';
const bucket = 'dogu-payloads-test';
let dynamo: EmbeddedDynamoDb;
let dir: Awaited<ReturnType<typeof tempDir>>;
let sent: { name: string; input: Record<string, unknown> }[] = [];
let store: DynamoDbStore;
let executions: DynamoDbExecutionStore;
let schedules: DynamoDbSchedulingStore;
const s3Mock = mockClient(S3Client);
const s3 = new S3Client({
  region: 'ap-northeast-1',
  credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret' },
});
const payloads = new S3PayloadStore(s3, bucket);

const now = new Date().toISOString();
const principal: Principal = { kind: 'user', id: 'u1', email: 'u1@example.com', name: 'U1' };
const action = (id: string, parameters: Action['parameters']): Action =>
  ({
    id,
    name: id,
    kind: 'sql',
    dataSourceId: 'db',
    parameters,
    statements: [{ title: 'Rows', sql: 'SELECT 1' }],
    projectId: 'p1',
    createdAt: now,
    updatedAt: now,
    version: 1,
  }) as unknown as Action;

/** Records every request the store sends, in order, then sends it to dynalite. */
function recording(client: DynamoDBDocumentClient): DynamoDBDocumentClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
        sent.push({ name: command.constructor.name, input: structuredClone(command.input) });
        return (target.send as (c: unknown) => Promise<unknown>)(command);
      };
    },
  });
}

let engineRun: (run: EngineRun) => Promise<StatementResult[]>;
const engines = {
  references: () => new Set<string>(),
  secretFields: () => [],
  fileKind: () => undefined,
  supportsDryRun: () => false,
  supportsPreview: () => false,
  run: (run: EngineRun) => engineRun(run),
} as unknown as ActionEngines;

const deps = (): ExecutionDeps => ({
  store,
  executions,
  reviews: new DynamoDbReviewStore(dynamo.client, table),
  engines,
  secrets: { decrypt: async () => '', encrypt: async () => '' } as unknown as ExecutionDeps['secrets'],
  clock: { now: () => new Date() },
  ids: uuidV7Ids,
  maxExecutionMs: 28_000,
  payloads,
});

beforeAll(async () => {
  dir = await tempDir('aws-path');
  dynamo = await startEmbeddedDynamoDb(join(dir.path, 'db'), table);
  store = new DynamoDbStore(recording(dynamo.client), table);
  executions = new DynamoDbExecutionStore(recording(dynamo.client), table);
  schedules = new DynamoDbSchedulingStore(recording(dynamo.client), table);
  await store.createProject({ id: 'p1', name: 'P1', createdAt: now });
  await store.createEnvironment({ projectId: 'p1', id: 'dev', name: 'Dev', createdAt: now });
  await store.putMembership({ projectId: 'p1', principalId: 'u1', role: 'admin' });
  await store.putDataSource({
    id: 'db',
    name: 'DB',
    kind: 'postgresql',
    environments: { dev: { host: 'db.internal' } },
    projectId: 'p1',
    createdAt: now,
    updatedAt: now,
  });
  await store.putAction(action('big', []));
  await store.putAction(action('note', [{ name: 'note', kind: 'text', label: 'Note' }]));
});
afterAll(async () => {
  await dynamo?.close();
  await dir?.remove();
});
beforeEach(() => {
  sent = [];
  s3Mock.reset();
  s3Mock.on(PutObjectCommand).resolves({});
});

const run = (actionId: string, args: Record<string, unknown> = {}) =>
  executeAction(deps(), {
    principal,
    projectId: 'p1',
    environmentId: 'dev',
    actionId,
    arguments: args,
    via: 'public_api',
  });

/** The execution items the recorded batch writes put, in order. */
const executionWrites = () =>
  sent
    .filter((c) => c.name === 'BatchWriteCommand')
    .flatMap((c) =>
      Object.values(
        c.input.RequestItems as Record<string, { PutRequest?: { Item: Execution & { type: string } } }[]>,
      ),
    )
    .flat()
    .flatMap((r) => (r.PutRequest?.Item.type === 'execution' ? [r.PutRequest.Item] : []));

describe('record before run (AWS adapters)', () => {
  it('writes the running record and its marker before the engine runs, then the final one', async () => {
    engineRun = async (engineInput) => {
      // Before anything runs, the store has received the running record and the live-run marker.
      const [write] = sent.filter((c) => c.name === 'BatchWriteCommand');
      expect(write, 'a write before the run').toBeDefined();
      const requests = (write!.input.RequestItems as Record<string, unknown[]>)[table] as {
        PutRequest: { Item: Record<string, unknown> };
      }[];
      expect(requests).toHaveLength(2);
      expect(requests[0]!.PutRequest.Item).toMatchObject({
        pk: `EXECUTION#${engineInput.values['system.executionId'] ?? requests[0]!.PutRequest.Item.id}`,
        type: 'execution',
        status: 'running',
        arguments: {},
      });
      const marker = requests[1]!.PutRequest.Item;
      expect(marker).toMatchObject({ type: 'liveExecution', executionId: requests[0]!.PutRequest.Item.id });
      expect(marker.pk).toMatch(/^LIVEEXEC#[0-7]$/);
      expect(marker.sk).toBe(`${requests[0]!.PutRequest.Item.deadlineAt}#${requests[0]!.PutRequest.Item.id}`);
      expect(typeof marker.ttl).toBe('number');
      return [
        { title: 'Rows', status: 'succeeded', columns: [], rows: [{ a: 1 }], rowCount: 1, messages: [] },
      ];
    };
    const outcome = await run('big');
    if (outcome.kind !== 'executed') throw new Error('expected a run');
    const writes = executionWrites();
    expect(writes.map((w) => w.status)).toEqual(['running', 'succeeded']);
    // The final write deletes the marker in the same request.
    const last = sent.filter((c) => c.name === 'BatchWriteCommand').at(-1)!;
    const lastRequests = (last.input.RequestItems as Record<string, { DeleteRequest?: unknown }[]>)[table]!;
    expect(lastRequests[1]!.DeleteRequest).toEqual({
      Key: {
        pk: expect.stringMatching(/^LIVEEXEC#/),
        sk: `${outcome.execution.deadlineAt}#${outcome.execution.id}`,
      },
    });
    expect(s3Mock.commandCalls(PutObjectCommand)).toHaveLength(0);
  });

  it('leaves a running record when the worker dies mid-run, which the sweeper ends', async () => {
    // The process "dies" in the engine: the run never returns. The engine is called only after the
    // running record was written, so once it is called there is a record to look at.
    let engineCalled: () => void = () => {};
    const called = new Promise<void>((resolve) => {
      engineCalled = resolve;
    });
    engineRun = () => {
      engineCalled();
      return new Promise(() => {});
    };
    void run('big');
    await called;
    const [running] = executionWrites();
    expect(running?.status).toBe('running');
    expect((await executions.getExecution(running!.id))?.status).toBe('running');

    sent = [];
    const later = new Date(new Date(running!.deadlineAt!).getTime() + 10 * 60_000);
    const outcome = await sweepAbandonedWork({
      ...deps(),
      clock: { now: () => later },
      schedules,
      maxJobExecutionMs: 14 * 60_000,
    } as unknown as SchedulingDeps);
    expect(outcome.executions).toBeGreaterThanOrEqual(1);
    const ended = await executions.getExecution(running!.id);
    expect(ended).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
    expect(ended?.error?.message).toContain('Interrupted');
    // Read by index: Queries of the marker partitions and the status indexes, no Scan.
    const names = new Set(sent.map((c) => c.name));
    expect(names.has('ScanCommand')).toBe(false);
    const queries = sent.filter((c) => c.name === 'QueryCommand');
    expect(queries.map((q) => (q.input.ExpressionAttributeValues as Record<string, string>)[':pk'])).toEqual(
      expect.arrayContaining(['LIVEEXEC#0', 'LIVEEXEC#7']),
    );
    // The marker is gone: a second sweep finds nothing.
    expect(await executions.listOverdueExecutions(later.toISOString())).toEqual([]);
  });
});

describe('the Catch step of the async-execution machine (AWS adapters)', () => {
  it('ends a job whose task failed: its reservation and its execution, once', async () => {
    const at = new Date().toISOString();
    const executionId = `exe_${uuidV7Ids.next('x').slice(2)}`;
    await executions.putExecution({
      id: executionId,
      projectId: 'p1',
      environmentId: 'dev',
      actionId: 'big',
      actionVersion: 1,
      status: 'running',
      principal: { kind: 'user', id: 'u1', email: 'u1@example.com' },
      via: 'async_job',
      arguments: {},
      startedAt: at,
      statements: [],
    });
    await schedules.createReservation({
      id: executionId,
      purpose: 'async_job',
      projectId: 'p1',
      environmentId: 'dev',
      actionId: 'big',
      arguments: {},
      runAt: at,
      timeZone: 'UTC',
      executor: { kind: 'user', id: 'u1', email: 'u1@example.com' },
      createdBy: { id: 'u1', email: 'u1@example.com' },
      status: 'running',
      executionId,
      createdAt: at,
      updatedAt: at,
    });
    const schedulingDeps = { ...deps(), schedules, maxJobExecutionMs: 870_000 } as unknown as SchedulingDeps;
    sent = [];
    await endFailedJob(schedulingDeps, { projectId: 'p1', executionId, cause: 'States.Timeout' });
    expect(await schedules.getReservation('p1', executionId)).toMatchObject({
      status: 'error',
      reason: expect.stringContaining('States.Timeout'),
    });
    expect(await executions.getExecution(executionId)).toMatchObject({
      status: 'failed',
      error: { message: expect.stringContaining("The job's worker failed") },
    });
    expect(sent.some((c) => c.name === 'ScanCommand')).toBe(false);
    // A second delivery of the same failure changes nothing.
    const before = await executions.getExecution(executionId);
    await endFailedJob(schedulingDeps, { projectId: 'p1', executionId });
    expect(await executions.getExecution(executionId)).toEqual(before);
  });
});

describe('large payloads (AWS adapters)', () => {
  it('puts a 7 MB Japanese result in S3 and answers a link; the record stays small', async () => {
    const body = '日本語のテキスト'.repeat(4400);
    const rows = Array.from({ length: 70 }, (_, n) => ({ n, body }));
    engineRun = async () => [
      { title: 'Text', status: 'succeeded', columns: [], rows, rowCount: rows.length, messages: [] },
    ];
    const outcome = await run('big');
    if (outcome.kind !== 'executed') throw new Error('expected a run');
    const { execution } = outcome;
    const puts = s3Mock.commandCalls(PutObjectCommand);
    expect(puts).toHaveLength(1);
    const input = puts[0]!.args[0].input;
    const expectedJson = JSON.stringify(outcome.results);
    // Bytes compared as a whole (a deep equality of 7 MB walks every index).
    expect(Buffer.from(input.Body as Uint8Array).equals(Buffer.from(expectedJson, 'utf8'))).toBe(true);
    expect({ ...input, Body: undefined }).toEqual({
      Bucket: bucket,
      Key: `executions/${execution.id}/results.json`,
      Body: undefined,
      ContentLength: Buffer.byteLength(expectedJson),
      ContentType: 'application/json; charset=utf-8',
      ServerSideEncryption: 'AES256',
    });
    expect(input.ContentLength).toBeGreaterThan(7 * 1024 * 1024);
    expect(execution.payloads).toEqual({ results: { bytes: input.ContentLength, stored: true } });
    // 2.4 M characters: the old UTF-16 count (5 MB) let it through; UTF-8 bytes do not.
    expect(expectedJson.length).toBeLessThan(5 * 1024 * 1024);

    const answer = executionBody(execution, outcome.results);
    expect(answer.links).toEqual({
      results: `/public/v1/projects/p1/environments/dev/executions/${execution.id}/payloads/results`,
    });
    expect(Buffer.byteLength(JSON.stringify(answer))).toBeLessThan(10_000);
    const [, final] = executionWrites().filter((w) => w.id === execution.id);
    expect(final).toMatchObject({ status: 'succeeded', payloads: { results: { stored: true } } });

    // The download link is a presigned GET of exactly that object, valid for the given time.
    const url = new URL(await payloads.downloadUrl(payloadKey(execution.id, 'results'), 300));
    expect(url.hostname).toBe(`${bucket}.s3.ap-northeast-1.amazonaws.com`);
    expect(url.pathname).toBe(`/executions/${execution.id}/results.json`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('puts a 1 MB argument in S3 before the run; the running record carries only its size', async () => {
    const note = 'あ'.repeat(350_000);
    engineRun = async () => {
      // Stored before the running record, which is written before the run.
      expect(s3Mock.commandCalls(PutObjectCommand)).toHaveLength(1);
      expect(executionWrites()[0]).toMatchObject({
        status: 'running',
        arguments: {},
        payloads: { arguments: { stored: true } },
      });
      return [{ title: 'Rows', status: 'succeeded', columns: [], rows: [], rowCount: 0, messages: [] }];
    };
    const outcome = await run('note', { note });
    if (outcome.kind !== 'executed') throw new Error('expected a run');
    const [put] = s3Mock.commandCalls(PutObjectCommand);
    const json = JSON.stringify({ note });
    const input = put!.args[0].input;
    expect(Buffer.from(input.Body as Uint8Array).equals(Buffer.from(json, 'utf8'))).toBe(true);
    expect({ ...input, Body: undefined }).toEqual({
      Bucket: bucket,
      Key: `executions/${outcome.execution.id}/arguments.json`,
      Body: undefined,
      ContentLength: Buffer.byteLength(json),
      ContentType: 'application/json; charset=utf-8',
      ServerSideEncryption: 'AES256',
    });
    // The item written stays far below DynamoDB's 400 KB.
    for (const item of executionWrites())
      expect(Buffer.byteLength(JSON.stringify(item))).toBeLessThan(10_000);
    s3Mock.on(GetObjectCommand).resolves({
      Body: { transformToByteArray: async () => Buffer.from(json) } as never,
    });
    expect(
      JSON.parse(
        Buffer.from((await payloads.get(payloadKey(outcome.execution.id, 'arguments')))!).toString(),
      ),
    ).toEqual({
      note,
    });
  });
});

describe('list paths read by index', () => {
  it('lists batches, reservations, cron runs and overdue runs with Query only', async () => {
    sent = [];
    await schedules.listBatches('p1');
    await schedules.listBatchesByStatus('running');
    await schedules.listReservations('p1');
    await schedules.listReservationsByStatus('running');
    await schedules.listCronRunsByStatus('running');
    await executions.listOverdueExecutions(new Date().toISOString());
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((c) => c.name === 'QueryCommand')).toBe(true);
    const byIndex = sent.filter((c) => c.input.IndexName === 'gsi1');
    expect(byIndex.length).toBeGreaterThanOrEqual(3);
  });
});
