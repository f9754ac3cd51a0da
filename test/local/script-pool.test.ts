/**
 * The script sandbox's pool under nested runs (decision 0077): a run waiting in `actions.run` keeps
 * its worker, so nested runs have lanes of their own and never wait for a worker their ancestors
 * hold; waiting counts inside a run's limit. Before, five parallel one-level chains on a pool of
 * four all ended at the limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import { apiClient } from '../support/api.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

let runtime: LocalRuntime;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
const base = '/api/v1/projects/demo';

async function saved(path: string, body: unknown) {
  const answer = await api.put(`${base}/${path}`, body);
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
}

const script = (id: string, code: string, dataSourceId = 'scripts') =>
  saved(`actions/${id}`, { id, name: id, kind: 'javascript', dataSourceId, code });

beforeAll(async () => {
  dir = await tempDir('script-pool');
  runtime = await startTestRuntime(dir.path, { scriptConcurrency: 4, maxExecutionMs: 30_000 });
  api = apiClient(runtime, await loginToken(runtime));
  for (const [id, timeoutMs] of [
    ['scripts', undefined],
    ['scripts-2s', 2_000],
  ] as const) {
    await saved(`data-sources/${id}`, {
      id,
      name: id,
      kind: 'javascript',
      environments: { development: timeoutMs ? { timeoutMs } : {} },
    });
  }
  await script('leaf', 'return 1;');
  await script('chain-3', 'return await actions.run("leaf", {});');
  await script('chain-2', 'return await actions.run("chain-3", {});');
  await script('chain-1', 'return await actions.run("chain-2", {});');
  await script('spin', 'while (true) {}', 'scripts-2s');
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
});

describe('the script pool under nested runs', () => {
  it('runs 16 parallel chains of depth 4 on a pool of 4, and an unrelated run keeps its own limit', async () => {
    // One chain first: the pool's threads start once, not all at once inside the timed part.
    expect((await api.execute('chain-1', {})).status).toBe(200);
    const chains = Array.from({ length: 16 }, () => api.execute('chain-1', {}));
    const spinStarted = Date.now();
    const spin = await api.execute('spin', {});
    const spinTook = Date.now() - spinStarted;
    const answers = await Promise.all(chains);
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.results[0].value).toBe(1);
      expect(answer.body.nestedExecutionIds).toHaveLength(1);
    }
    // The unrelated run waited its turn inside its own 2 s limit, not after the chains' work.
    expect(spin.status, JSON.stringify(spin.body)).toBe(504);
    expect(spin.body.detail).toContain("data source's time-out (timeoutMs 2000 ms)");
    // Its own time, waiting included, as recorded; the answer around it adds only the request's work.
    expect(spin.body.execution.durationMs).toBeLessThan(3_000);
    expect(spinTook).toBeLessThan(8_000);
  }, 60_000);
});
