/**
 * Before decision 0250 the embedded runtime kept execution records and audit entries in dynalite,
 * reached through write-behind journals (`executions.journal`, `audit.journal`). At start-up, before
 * anything is served, this moves them into the SQLite file: once, the dynalite items (one scan of the
 * table; a marker in the SQLite file says it is done, and a start killed half-way repeats it, every
 * write being idempotent); and each time, whatever an older version's crash left in those journals,
 * which are then removed. The dynalite items stay where they are, unread.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { auditEntryOf } from '../../shared/adapters/audit-sort-key.ts';
import { logger } from '../../shared/commons/logger.ts';
import type { AuditEntry, ChainHead } from '../../shared/domain/audit.ts';
import type { Execution } from '../../shared/domain/model.ts';
import { readJournal } from '../write-behind-journal.ts';
import type { DatabaseSync } from './local-database.ts';
import type { SqliteAuditLog } from './sqlite-audit-log.ts';
import type { SqliteExecutions } from './sqlite-executions.ts';

const marker = 'records-from-dynalite';

export interface EarlierRecords {
  db: DatabaseSync;
  executions: SqliteExecutions;
  audit: SqliteAuditLog;
  dynalite: { client: DynamoDBDocumentClient; tableName: string };
  dataDir: string;
}

export async function takeOverEarlierRecords(target: EarlierRecords): Promise<void> {
  if (!target.db.prepare('SELECT 1 FROM markers WHERE name = ?').get(marker)) {
    const moved = await moveFromDynalite(target);
    target.db
      .prepare('INSERT OR IGNORE INTO markers (name, at) VALUES (?, ?)')
      .run(marker, new Date().toISOString());
    if (moved.executions + moved.auditEntries > 0) logger.info('records moved from dynalite', moved);
  }
  await replayJournals(target);
}

async function moveFromDynalite({ executions, audit, dynalite }: EarlierRecords) {
  const moved = { executions: 0, auditEntries: 0 };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynalite.client.send(
      new ScanCommand({
        TableName: dynalite.tableName,
        FilterExpression: '#type IN (:execution, :audit, :head)',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':execution': 'execution', ':audit': 'audit', ':head': 'audit_head' },
        ExclusiveStartKey: startKey,
      }),
    );
    const items = page.Items ?? [];
    const records = items.filter((item) => item.type === 'execution').map(executionOf);
    const entries = items.filter((item) => item.type === 'audit').map(auditEntryOf);
    const heads = items.filter((item) => item.type === 'audit_head').map(headOf);
    await executions.putExecutions(records);
    audit.keepLinked(entries);
    audit.keepHeads(heads);
    moved.executions += records.length;
    moved.auditEntries += entries.length;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return moved;
}

/** An older version's journals: their records are newer than anything in dynalite. */
async function replayJournals({ executions, audit, dataDir }: EarlierRecords): Promise<void> {
  const executionsPath = join(dataDir, 'executions.journal');
  const records = await readJournal<Execution>(executionsPath, 'executions');
  // The last version of a record written twice is the one to keep.
  await executions.putExecutions([...new Map(records.map((record) => [record.id, record])).values()]);
  await rm(executionsPath, { force: true });
  const auditPath = join(dataDir, 'audit.journal');
  audit.keepLinked(await readJournal<AuditEntry>(auditPath, 'audit'));
  await rm(auditPath, { force: true });
  if (records.length > 0) logger.info('journal replayed', { journal: 'executions', records: records.length });
}

function executionOf(item: Record<string, unknown>): Execution {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, type: _type, ...record } = item;
  return record as unknown as Execution;
}

function headOf(item: Record<string, unknown>): ChainHead {
  return {
    projectId: String(item.projectId),
    seq: Number(item.seq),
    hash: String(item.hash),
    entryId: String(item.entryId),
    at: String(item.at),
  };
}
