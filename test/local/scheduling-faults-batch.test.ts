/**
 * kill -9 of the embedded runtime while a batch runs (issue 6): after a restart on the same data
 * directory the batch finishes with every row settled, no argument set inserted twice, and only the
 * rows that were running at the kill left as "interrupted". Rows run as one group per chunk (decision
 * 0255), so that is at most the batch's concurrency times the chunk size, and the interrupted rows of
 * one chunk either all committed or none did (one transaction).
 */
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { batchChunkSize } from '../../shared/domain/batch/batches.ts';
import {
  httpApi,
  localLoginToken,
  mainProcessFixture,
  stopGracefully,
} from '../support/scheduling-process.ts';

const rowCount = 300;
const concurrency = 4;
const base = '/api/v1/projects/demo';
const scope = `${base}/environments/development`;

// No unique key on purpose: a row run twice must show up as a second row, not as an error.
const fixture = mainProcessFixture(
  'batch-kill',
  'CREATE TABLE batch_fault (k integer NOT NULL, at timestamptz NOT NULL DEFAULT now())',
);

interface Progress {
  total: number;
  waiting: number;
  running: number;
  success: number;
  failure: number;
}
interface Row {
  index: number;
  arguments: { k: number };
  status: string;
  error?: { code: string; message: string };
}

describe('kill -9 during a batch', () => {
  it('finishes after a restart with nothing lost and nothing run twice', { timeout: 300_000 }, async () => {
    const first = await fixture.start();
    const token = await localLoginToken(first.url);
    let call = httpApi(first.url, token);
    const saved = await call('PUT', `${base}/actions/insert-key`, {
      id: 'insert-key',
      name: 'Insert key',
      kind: 'sql',
      dataSourceId: 'demo-postgres',
      // The sleep keeps each row busy long enough to kill the process mid-batch.
      statements: [
        { title: 'insert', sql: 'INSERT INTO batch_fault (k) SELECT {{ k }} FROM pg_sleep(0.03)' },
      ],
      parameters: [{ name: 'k', kind: 'number', label: 'Key', required: true }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);

    const rows = Array.from({ length: rowCount }, (_, i) => ({ k: i + 1 }));
    const created = await call('POST', `${scope}/actions/insert-key/batches`, { rows, concurrency });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const batchId: string = created.body.batch.id;

    // Kill once between 10 % and 90 % of the rows have an outcome.
    let progressAtKill: Progress | undefined;
    const deadline = Date.now() + 60_000;
    while (!progressAtKill && Date.now() < deadline) {
      const { body } = await call('GET', `${scope}/batches/${batchId}`);
      const { success, failure } = body.progress as Progress;
      const done = (success + failure) / rowCount;
      if (done >= 0.9) throw new Error(`the batch ran too fast to be killed mid-way (${done * 100} % done)`);
      if (done >= 0.1) {
        first.child.kill('SIGKILL');
        progressAtKill = body.progress;
      } else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(progressAtKill, 'the batch reached 10 % in time').toBeDefined();
    await once(first.child, 'exit');
    const { rows: insertedAtKill } = await fixture.database.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM batch_fault',
    );
    expect(insertedAtKill[0]!.n).toBeLessThan(rowCount);

    const second = await fixture.start();
    try {
      call = httpApi(second.url, token);
      let finished: { batch: { status: string }; progress: Progress; rows: Row[] } | undefined;
      while (Date.now() < deadline + 60_000) {
        const { body } = await call('GET', `${scope}/batches/${batchId}`);
        if (body.batch.status === 'finished') {
          finished = body;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(finished, 'the batch finished after the restart').toBeDefined();
      const { progress, rows: batchRows } = finished!;

      // Every row settled.
      expect(progress.total).toBe(rowCount);
      expect(progress.waiting + progress.running).toBe(0);
      expect(batchRows.map((r) => r.status).filter((s) => s !== 'success' && s !== 'failure')).toEqual([]);

      // No argument set inserted twice.
      const { rows: perKey } = await fixture.database.query<{ k: number; n: number }>(
        'SELECT k, count(*)::int AS n FROM batch_fault GROUP BY k ORDER BY k',
      );
      expect(perKey.filter((r) => r.n > 1)).toEqual([]);
      const inserted = new Set(perKey.map((r) => r.k));

      // Rows counted success are exactly inserted; the only failures are the rows running at the kill,
      // which may or may not have committed (they are never run again without a person deciding).
      const success = batchRows.filter((r) => r.status === 'success').map((r) => r.arguments.k);
      const interrupted = batchRows.filter((r) => r.status === 'failure');
      expect(interrupted.map((r) => r.error?.code)).toEqual(interrupted.map(() => 'interrupted'));
      expect(interrupted.length).toBeLessThanOrEqual(concurrency * batchChunkSize);
      const interruptedByChunk = new Map<number, Row[]>();
      for (const row of interrupted) {
        const chunk = Math.floor(row.index / batchChunkSize);
        interruptedByChunk.set(chunk, [...(interruptedByChunk.get(chunk) ?? []), row]);
      }
      for (const [chunk, rowsOfChunk] of interruptedByChunk) {
        const committed = rowsOfChunk.filter((r) => inserted.has(r.arguments.k)).length;
        expect([0, rowsOfChunk.length], `interrupted rows of chunk ${chunk}`).toContain(committed);
      }
      expect(success.filter((k) => !inserted.has(k))).toEqual([]);
      const successSet = new Set(success);
      const insertedNotSuccess = [...inserted].filter((k) => !successSet.has(k));
      const interruptedKeys = new Set(interrupted.map((r) => r.arguments.k));
      expect(insertedNotSuccess.filter((k) => !interruptedKeys.has(k))).toEqual([]);
      expect(success.length + interrupted.length).toBe(rowCount);
    } finally {
      await stopGracefully(second.child);
    }
  });
});
