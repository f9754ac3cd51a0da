/**
 * kill -9 of the embedded runtime while asynchronous jobs are being accepted and run (issue 24,
 * item 16). Every cycle sends 16 parallel `"async": true` executions and kills the process after a
 * different number of them were answered 202, so kills land inside the reservation writes, the
 * claims and the outcomes. After the last restart every acknowledged job has reached a final
 * status: succeeded, or failed with code `interrupted` when it was running at a kill. None ran twice.
 * After every kill the store's items and its status index agree (decision 0120).
 */
import { once } from 'node:events';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { startEmbeddedDynamoDb } from '../../local/embedded-dynamodb.ts';
import {
  httpApi,
  localLoginToken,
  mainProcessFixture,
  stopGracefully,
} from '../support/scheduling-process.ts';

const cycles = 5;
const jobsPerCycle = 16;
const scope = '/public/v1/projects/demo/environments/development';
const finalStatuses = new Set(['succeeded', 'failed', 'timed_out']);

const fixture = mainProcessFixture('async-kill', 'CREATE TABLE job_mark (k integer NOT NULL)');

interface Execution {
  id: string;
  status: string;
  error?: { code: string; message: string };
}

/**
 * Items whose gsi1 keys the index does not hold, and index entries whose item does not exist or has
 * other keys: what a kill between an item's write and its index writes leaves.
 */
async function indexDisagreements(dataDir: string): Promise<string[]> {
  const store = await startEmbeddedDynamoDb(join(dataDir, 'dynamodb'), 'dogu');
  try {
    const scan = async (IndexName?: string) => {
      const entries = new Map<string, string>();
      let ExclusiveStartKey: Record<string, unknown> | undefined;
      do {
        const page = await store.client.send(
          new ScanCommand({ TableName: 'dogu', ...(IndexName ? { IndexName } : {}), ExclusiveStartKey }),
        );
        for (const item of page.Items ?? [])
          if (item.gsi1pk !== undefined)
            entries.set(`${item.pk} ${item.sk}`, `${item.gsi1pk} ${item.gsi1sk}`);
        ExclusiveStartKey = page.LastEvaluatedKey;
      } while (ExclusiveStartKey);
      return entries;
    };
    const items = await scan();
    const index = await scan('gsi1');
    return [
      ...[...items].filter(([key, keys]) => index.get(key) !== keys).map(([key]) => `not indexed: ${key}`),
      ...[...index]
        .filter(([key, keys]) => items.get(key) !== keys)
        .map(([key]) => `stale index entry: ${key}`),
    ];
  } finally {
    await store.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('kill -9 while async jobs are accepted and run', () => {
  it('brings every acknowledged job to a final status, none run twice', {
    timeout: (cycles + 1) * 150_000,
  }, async () => {
    const acknowledged = new Map<string, number>();
    let key = 0;
    let token = '';
    for (let cycle = 0; cycle < cycles; cycle++) {
      const runtime = await fixture.start();
      if (!token) {
        token = await localLoginToken(runtime.url);
        const saved = await httpApi(runtime.url, token)('PUT', '/api/v1/projects/demo/actions/mark-job', {
          id: 'mark-job',
          name: 'Mark job',
          kind: 'sql',
          dataSourceId: 'demo-postgres',
          // Short enough that some jobs finish before the kill, long enough that some are running at it.
          statements: [{ title: 'mark', sql: 'INSERT INTO job_mark (k) SELECT {{ k }} FROM pg_sleep(0.05)' }],
          parameters: [{ name: 'k', kind: 'number', label: 'Key', required: true }],
        });
        expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
      }
      const call = httpApi(runtime.url, token);
      // A different point in the stream of answers each cycle: after 1, 4, 7 … of the 16 acknowledgements.
      const killAfter = 1 + ((cycle * 3) % (jobsPerCycle - 2));
      let answered = 0;
      let killed = false;
      const kill = () => {
        killed = true;
        runtime.child.kill('SIGKILL');
      };
      const exited = once(runtime.child, 'exit');
      const submissions = Array.from({ length: jobsPerCycle }, async () => {
        const k = ++key;
        try {
          const response = await call('POST', `${scope}/actions/mark-job/executions`, {
            arguments: { k },
            async: true,
          });
          if (response.status === 202) acknowledged.set(response.body.execution.id, k);
          else expect.fail(`job ${k} answered ${response.status}: ${JSON.stringify(response.body)}`);
          if (++answered === killAfter) kill();
        } catch (error) {
          // The process died before answering: the job was never acknowledged.
          if (!killed) throw error;
        }
      });
      await Promise.all(submissions);
      if (!killed) kill();
      await exited;
      expect(await indexDisagreements(fixture.dataDir), `after kill ${cycle + 1}`).toEqual([]);
    }
    expect(acknowledged.size).toBeGreaterThanOrEqual(cycles);

    const last = await fixture.start();
    try {
      const call = httpApi(last.url, token);
      const outcomes = new Map<string, Execution>();
      const deadline = Date.now() + 90_000;
      while (outcomes.size < acknowledged.size && Date.now() < deadline) {
        for (const id of acknowledged.keys()) {
          if (outcomes.has(id)) continue;
          const { status, body } = await call('GET', `${scope}/executions/${id}`);
          expect(status, `execution ${id}`).toBe(200);
          if (finalStatuses.has(body.status)) outcomes.set(id, body);
        }
        if (outcomes.size < acknowledged.size) await sleep(250);
      }
      const stuck = [...acknowledged.keys()].filter((id) => !outcomes.has(id));
      expect(stuck, 'acknowledged jobs that never reached a final status').toEqual([]);

      const statuses = [...outcomes.values()];
      // A job ends failed only because it was running when the process died.
      const otherFailures = statuses.filter(
        (e) => e.status !== 'succeeded' && e.error?.code !== 'interrupted',
      );
      expect(otherFailures).toEqual([]);

      const { rows } = await fixture.database.query<{ k: number; n: number }>(
        'SELECT k, count(*)::int AS n FROM job_mark GROUP BY k',
      );
      expect(
        rows.filter((row) => row.n > 1),
        'jobs run twice',
      ).toEqual([]);
      const marked = new Set(rows.map((row) => row.k));
      const succeededUnmarked = statuses
        .filter((e) => e.status === 'succeeded')
        .map((e) => acknowledged.get(e.id)!)
        .filter((k) => !marked.has(k));
      expect(succeededUnmarked, 'succeeded jobs without their effect').toEqual([]);
    } finally {
      await stopGracefully(last.child);
    }
  });
});
