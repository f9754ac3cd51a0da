/**
 * The preview on the embedded demo database (PGlite behind its relay): the demo's `mark-shipped`
 * previews one row with its order before and after, and the order stays paid (decision 0185).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  dir = await tempDir('preview-demo');
  runtime = await startTestRuntime(dir.path);
  api = apiClient(runtime, await loginToken(runtime));
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

describe('preview on the demo database', () => {
  it('mark-shipped previews one row, paid before and shipped after, and the order stays paid', async () => {
    // Order 2 is paid in the seeded data (local/demo-database.ts).
    const before = await api.execute('order-detail', { order_id: 2 });
    expect(before.body.results[0].rows[0].status).toBe('paid');
    const preview = await api.post(
      '/public/v1/projects/demo/environments/development/actions/mark-shipped/executions',
      { arguments: { order_id: 2 }, preview: true },
    );
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const [statement] = preview.body.results;
    expect(statement.preview).toMatchObject({
      rowsAffected: 1,
      before: { rows: [{ id: 2, status: 'paid' }] },
      after: { rows: [{ id: 2, status: 'shipped' }] },
    });
    expect(statement.rows).toEqual([{ id: 2, status: 'shipped' }]);
    const after = await api.execute('order-detail', { order_id: 2 });
    expect(after.body.results[0].rows[0].status).toBe('paid');
    // The demo database still takes writes: the preview's transaction is gone.
    const shipped = await api.execute('mark-shipped', { order_id: 2 });
    expect(shipped.body.results[0].rows).toEqual([{ id: 2, status: 'shipped' }]);
  });
});
