/** The audit log on the embedded DynamoDB (dynalite on disk): append-only, newest first, filters, pages. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from '../../local/embedded-dynamodb.ts';
import { DynamoDbAuditLog } from '../../shared/adapters/dynamodb/dynamodb-audit-log.ts';
import type { AuditLog } from '../../shared/domain/audit.ts';
import { auditLogContract, everything } from '../support/audit-log-contract.ts';
import { tempDir } from '../support/runtime.ts';

let dynamo: EmbeddedDynamoDb;
let audit: AuditLog;
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  dir = await tempDir('audit');
  dynamo = await startEmbeddedDynamoDb(dir.path, 'dogu');
  audit = new DynamoDbAuditLog(dynamo.client, 'dogu');
});
afterAll(async () => {
  await dynamo?.close();
  await dir?.remove();
});

describe('DynamoDbAuditLog', () => {
  auditLogContract(
    () => audit,
    ({ all, newestFirst }) => {
      it('fills a filtered page across many small DynamoDB pages', async () => {
        const smallPages = new DynamoDbAuditLog(dynamo.client, 'dogu', {
          filteredScanSize: 7,
          maxPagesPerCall: 100,
        });
        const { ids, pageSizes } = await everything(smallPages, {
          projectId: 'big',
          event: 'action.',
          limit: 30,
        });
        expect(ids).toEqual(newestFirst(all.filter((e) => e.event === 'action.update')));
        expect(pageSizes).toEqual([30, 30, 24]);
      });

      it('answers a short page with a cursor when a selective filter would read too much at once', async () => {
        const tight = new DynamoDbAuditLog(dynamo.client, 'dogu', {
          filteredScanSize: 7,
          maxPagesPerCall: 3,
        });
        const { ids, pageSizes } = await everything(tight, { projectId: 'big', event: 'action.', limit: 30 });
        expect(ids).toEqual(newestFirst(all.filter((e) => e.event === 'action.update')));
        // Three pages of seven items hold seven updates: never a full page of 30, nothing lost.
        expect(Math.max(...pageSizes)).toBeLessThanOrEqual(7);
        expect(pageSizes.length).toBeGreaterThan(10);
      });
    },
  );
});
