/**
 * The chain on DynamoDB as AWS runs it (decision 0180): several functions append to one project at
 * once, each through its own adapter and client; the conditional head write keeps one chain.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from '../../local/embedded-dynamodb.ts';
import { createDocumentClient } from '../../shared/adapters/dynamodb/client.ts';
import { DynamoDbAuditLog } from '../../shared/adapters/dynamodb/dynamodb-audit-log.ts';
import type { AuditEntry } from '../../shared/domain/audit.ts';
import { ChainVerifier } from '../../shared/domain/audit-chain/verify.ts';
import { tempDir } from '../support/runtime.ts';

let dynamo: EmbeddedDynamoDb;
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  dir = await tempDir('audit-chain-ddb');
  dynamo = await startEmbeddedDynamoDb(dir.path, 'dogu');
});
afterAll(async () => {
  await dynamo?.close();
  await dir?.remove();
});

const entry = (n: number): AuditEntry => ({
  id: `aud_${String(n).padStart(3, '0')}`,
  projectId: 'p',
  at: '2026-11-28T00:00:00.000Z',
  actor: { kind: 'user', id: 'usr_a', email: 'a@example.com' },
  event: 'execution.run',
  target: { type: 'action', id: 'a' },
  outcome: 'succeeded',
});

it('30 appends from five functions at once form one chain, checked by the verifier', async () => {
  // Each "function" has a client of its own, as separate Lambda containers do.
  const functions = Array.from(
    { length: 5 },
    () =>
      new DynamoDbAuditLog(
        createDocumentClient({
          endpoint: dynamo.endpoint,
          region: 'local',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }),
        'dogu',
      ),
  );
  await Promise.all(Array.from({ length: 30 }, (_, n) => functions[n % 5]!.append(entry(n))));
  const log = functions[0]!;
  const page = await log.chainPage({ projectId: 'p' });
  expect(page.entries).toHaveLength(30);
  const seqs = page.entries.map((e) => e.chain!.seq).sort((a, b) => a - b);
  expect(seqs).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  expect(page.head).toMatchObject({ seq: 30 });
  const verifier = new ChainVerifier();
  for (const e of page.entries) expect(verifier.add(e)).toBe(true);
  expect(verifier.finish(page.head)).toMatchObject({ ok: true, checked: 30 });
  // The head names the entry at place 30.
  const last = page.entries.find((e) => e.chain!.seq === 30)!;
  expect(await log.head('p')).toEqual({
    projectId: 'p',
    seq: 30,
    hash: last.chain!.hash,
    entryId: last.id,
    at: last.at,
  });
});
