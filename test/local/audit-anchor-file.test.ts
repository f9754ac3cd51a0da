/**
 * Local anchoring (decision 0182): at shutdown the embedded runtime appends every chain head to
 * `<data directory>.audit-anchors.jsonl`, beside the data directory; a later run appends, never rewrites.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { anchorFileOf } from '../../local/audit-anchor-file.ts';
import type { AuditEntry } from '../../shared/domain/audit.ts';
import type { AnchorRecord } from '../../shared/domain/audit-chain/anchor.ts';
import { startTestRuntime, tempDir } from '../support/runtime.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('audit-anchor');
});
afterAll(async () => {
  await dir?.remove();
});

const entry = (n: number): AuditEntry => ({
  id: `aud_anchor_${n}`,
  projectId: 'demo',
  at: new Date(Date.UTC(2026, 10, 2, 0, 0, n)).toISOString(),
  actor: { kind: 'user', id: 'usr_a', email: 'a@example.com' },
  event: 'action.update',
  target: { type: 'action', id: 'x' },
  outcome: 'succeeded',
});

const anchors = async (dataDir: string) =>
  (await readFile(anchorFileOf(dataDir), 'utf8'))
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as AnchorRecord);

it('appends the heads at each shutdown, beside the data directory, matching the entries', async () => {
  const dataDir = `${dir.path}/data`;
  expect(anchorFileOf(dataDir)).toBe(`${dir.path}/data.audit-anchors.jsonl`);
  const first = await startTestRuntime(dataDir);
  for (const n of [1, 2, 3]) await first.services.audit.append(entry(n));
  const headThen = (await first.services.audit.head('demo'))!;
  await first.close();
  const afterFirst = await anchors(dataDir);
  expect(afterFirst).toHaveLength(1);
  expect(afterFirst[0]!.heads.find((h) => h.projectId === 'demo')).toEqual(headThen);

  const second = await startTestRuntime(dataDir);
  await second.services.audit.append(entry(4));
  const page = await second.services.audit.chainPage({ projectId: 'demo' });
  const anchored = page.entries.find((e) => e.chain?.seq === headThen.seq)!;
  // The anchored hash is the hash of the entry at that place, which the later entries build on.
  expect(anchored.chain!.hash).toBe(headThen.hash);
  await second.close();
  const afterSecond = await anchors(dataDir);
  expect(afterSecond).toHaveLength(2);
  expect(afterSecond[0]).toEqual(afterFirst[0]);
  expect(afterSecond[1]!.heads.find((h) => h.projectId === 'demo')).toMatchObject({
    seq: headThen.seq + 1,
    entryId: 'aud_anchor_4',
  });
});
