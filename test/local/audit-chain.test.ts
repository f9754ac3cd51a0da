/**
 * The audit hash chain on a real embedded runtime (decisions 0180, 0181): concurrent appends keep one
 * chain; an entry edited, deleted or inserted directly in the embedded store is named by the API's
 * verification and by `dogu audit verify`, which checks the chain itself from `/audit-log/chain`.
 */

import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../local/runtime.ts';
import type { AuditEntry } from '../../shared/domain/audit.ts';
import { apiClient } from '../support/api.ts';
import { runCli } from '../support/cli-bundle.ts';
import { repoRoot } from '../support/process.ts';
import { loginToken, startTestRuntime, tempDir } from '../support/runtime.ts';

/** Runs plain `node` (no loader, no TypeScript), as an auditor would. */
const runNode = (args: string[]) =>
  new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(process.execPath, args, (error, stdout) =>
      resolve({ code: error ? Number(error.code) : 0, stdout }),
    );
  });

let runtime: LocalRuntime;
let dir: Awaited<ReturnType<typeof tempDir>>;
let home: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
const project = 'chain';
const base = `/api/v1/projects/${project}/audit-log`;
const dogu = (...args: string[]) => runCli(args, { HOME: home.path, DOGU_URL: runtime.url });

const entry = (n: number): AuditEntry => ({
  id: `aud_chain_${String(n).padStart(3, '0')}`,
  projectId: project,
  at: new Date(Date.UTC(2026, 10, 1, 9, 0, n)).toISOString(),
  actor: { kind: 'user', id: 'usr_chain', email: 'chain@example.com' },
  event: 'action.update',
  target: { type: 'action', id: `action-${n}` },
  outcome: 'succeeded',
  details: { n, note: 'ü ✓ 𝄞' },
});

beforeAll(async () => {
  dir = await tempDir('audit-chain');
  home = await tempDir('audit-chain-home');
  runtime = await startTestRuntime(dir.path);
  api = apiClient(runtime, await loginToken(runtime));
  expect((await api.put(`/api/v1/projects/${project}`, { id: project, name: 'Chain' })).status).toBe(201);
  // Forty appends at once, in reverse time order: the chain is append order, never forked.
  await Promise.all(Array.from({ length: 40 }, (_, i) => runtime.services.audit.append(entry(40 - i))));
  expect((await dogu('login')).code).toBe(0);
});
afterAll(async () => {
  await runtime?.close();
  await Promise.all([dir?.remove(), home?.remove()]);
});

async function chain(): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.get(`${base}/chain?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.status).toBe(200);
    entries.push(...page.body.data);
    cursor = page.body.next_cursor;
  } while (cursor);
  return entries;
}

/** Entries as the embedded store keeps them (SQLite, decision 0250), edited underneath the service. */
type Stored = AuditEntry & Record<string, unknown>;
const sortKey = (e: Pick<AuditEntry, 'at' | 'id'>) => `${e.at}#${e.id}`;
const read = (e: AuditEntry): Stored =>
  JSON.parse(
    String(
      runtime.storage.local
        .prepare('SELECT entry FROM audit_entries WHERE project_id = ? AND sort_key = ?')
        .get(project, sortKey(e))!.entry,
    ),
  );
const write = (e: Stored) =>
  runtime.storage.local
    .prepare(
      `INSERT OR REPLACE INTO audit_entries (project_id, sort_key, actor_id, event, target_id, entry)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(project, sortKey(e), e.actor.id, e.event, e.target.id, JSON.stringify(e));
const remove = (e: AuditEntry) =>
  runtime.storage.local
    .prepare('DELETE FROM audit_entries WHERE project_id = ? AND sort_key = ?')
    .run(project, sortKey(e));

async function verification(from?: string) {
  const answer = await api.get(`${base}/verification${from ? `?from=${from}` : ''}`);
  expect(answer.status).toBe(200);
  return answer.body;
}

describe('audit hash chain', () => {
  it('concurrent appends form one chain: places 1..n, each linked to the one before', async () => {
    const entries = await chain();
    const ours = entries.filter((e) => e.id.startsWith('aud_chain_'));
    expect(ours).toHaveLength(40);
    const bySeq = [...entries].sort((a, b) => a.chain!.seq - b.chain!.seq);
    expect(bySeq.map((e) => e.chain!.seq)).toEqual(bySeq.map((_, i) => i + 1));
    expect(bySeq[0]!.chain!.prevHash).toBe('0'.repeat(64));
    for (let i = 1; i < bySeq.length; i++) expect(bySeq[i]!.chain!.prevHash).toBe(bySeq[i - 1]!.chain!.hash);
    expect(new Set(bySeq.map((e) => e.chain!.hash)).size).toBe(bySeq.length);
    const result = await verification();
    expect(result).toMatchObject({ ok: true, checked: entries.length, unchained: 0 });
    expect(result.head).toMatchObject({ seq: entries.length, hash: bySeq.at(-1)!.chain!.hash });
    const cli = await dogu('audit', 'verify', '--project', project);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain(`OK: ${entries.length} entries of chain checked; head #${entries.length}`);
  });

  it('an entry edited in the store is named as changed (API and CLI); put back, the chain holds again', async () => {
    const victim = (await chain()).find((e) => e.id === 'aud_chain_020')!;
    const Item = read(victim);
    write({ ...Item, outcome: 'refused' });
    try {
      const result = await verification();
      expect(result.ok).toBe(false);
      expect(result.problem).toMatchObject({ kind: 'changed', entryId: victim.id, seq: victim.chain!.seq });
      const cli = await dogu('audit', 'verify', '--project', project);
      expect(cli.code).toBe(1);
      expect(cli.stdout).toContain(
        `FAILED (changed): Entry ${victim.id} (#${victim.chain!.seq}) was changed`,
      );
    } finally {
      write(Item);
    }
    expect((await verification()).ok).toBe(true);
  });

  it('an entry edited with its hash recomputed is named through the next entry', async () => {
    const entries = await chain();
    const victim = entries.find((e) => e.id === 'aud_chain_010')!;
    const Item = read(victim);
    const { entryHash } = await import('../../shared/domain/audit-chain/link.ts');
    const forged = { ...victim, details: { n: 10, note: 'nothing to see' } };
    const hash = entryHash(forged, victim.chain!.seq, victim.chain!.prevHash);
    write({ ...Item, details: forged.details, chain: { ...victim.chain!, hash } });
    try {
      expect((await verification()).problem).toMatchObject({ kind: 'changed', entryId: victim.id });
    } finally {
      write(Item);
    }
  });

  it('an entry deleted from the store is named as removed, with the entry before it', async () => {
    const bySeq = (await chain()).sort((a, b) => a.chain!.seq - b.chain!.seq);
    const victim = bySeq[14]!;
    const Item = read(victim);
    remove(victim);
    try {
      const result = await verification();
      expect(result.problem).toMatchObject({ kind: 'removed', seq: 15, entryId: bySeq[13]!.id });
      const cli = await dogu('audit', 'verify', '--project', project);
      expect(cli.code).toBe(1);
      expect(cli.stdout).toContain(
        `FAILED (removed): Entry #15, after entry ${bySeq[13]!.id} (#14), was removed.`,
      );
    } finally {
      write(Item);
    }
  });

  it('the newest entry deleted is found through the head', async () => {
    const bySeq = (await chain()).sort((a, b) => a.chain!.seq - b.chain!.seq);
    const victim = bySeq.at(-1)!;
    const Item = read(victim);
    remove(victim);
    try {
      expect((await verification()).problem).toMatchObject({ kind: 'removed', seq: victim.chain!.seq });
    } finally {
      write(Item);
    }
  });

  it('an entry inserted into the store is named as inserted, with or without a forged link', async () => {
    const bySeq = (await chain()).sort((a, b) => a.chain!.seq - b.chain!.seq);
    const fake = { ...entry(0), id: 'aud_fake', at: '2026-11-01T09:00:20.500Z', event: 'login' };
    write(fake);
    try {
      const result = await verification();
      expect(result.problem).toMatchObject({ kind: 'inserted', entryId: 'aud_fake' });
      const cli = await dogu('audit', 'verify', '--project', project);
      expect(cli.code).toBe(1);
      expect(cli.stdout).toContain('FAILED (inserted): Entry aud_fake has no link in the chain');
      // A forged link at a taken place, correctly hashed after the entry before it.
      const { entryHash } = await import('../../shared/domain/audit-chain/link.ts');
      const place = bySeq[20]!.chain!;
      const chainOf = {
        seq: place.seq,
        prevHash: place.prevHash,
        hash: entryHash(fake, place.seq, place.prevHash),
      };
      write({ ...fake, chain: chainOf });
      expect((await verification()).problem).toMatchObject({
        kind: 'inserted',
        entryId: 'aud_fake',
        seq: place.seq,
      });
    } finally {
      remove(fake);
    }
    expect((await verification()).ok).toBe(true);
  });

  it('--from starts at an entry and checks from there on', async () => {
    const bySeq = (await chain()).sort((a, b) => a.chain!.seq - b.chain!.seq);
    const early = bySeq[4]!;
    // Damage before the start is not looked at; the rest is checked.
    const Item = read(bySeq[1]!);
    remove(bySeq[1]!);
    try {
      expect((await verification()).ok).toBe(false);
      const result = await verification(early.id);
      expect(result).toMatchObject({ ok: true, checked: bySeq.length - 4 });
      const cli = await dogu('audit', 'verify', '--project', project, '--from', early.id);
      expect(cli.code).toBe(0);
      const unknown = await verification('aud_nowhere');
      expect(unknown.problem).toMatchObject({ kind: 'removed', entryId: 'aud_nowhere' });
    } finally {
      write(Item);
    }
  });

  it('dogu audit export keeps the hashes; the ten-line script in docs/governance.md verifies it offline', async () => {
    const doc = await readFile(join(repoRoot, 'docs/governance.md'), 'utf8');
    const script = /<!-- verify-audit\.mjs:[^\n]*-->\n```js\n([\s\S]*?)```/.exec(doc)![1]!;
    expect(script.trimEnd().split('\n')).toHaveLength(10);
    const scriptFile = join(home.path, 'verify-audit.mjs');
    await writeFile(scriptFile, script);
    const exportFile = join(home.path, 'audit.jsonl');
    const exported = await dogu(
      'audit',
      'export',
      '--project',
      project,
      '--format',
      'jsonl',
      '-o',
      exportFile,
    );
    expect(exported.code).toBe(0);
    const text = await readFile(exportFile, 'utf8');
    const lines = text.trimEnd().split('\n');
    const head = (await verification()).head;
    expect(exported.stderr).toContain(`Wrote ${lines.length} entries`);
    const offline = (file: string) => runNode([scriptFile, file]);
    const good = await offline(exportFile);
    expect(good).toEqual({
      code: 0,
      stdout: `OK: ${lines.length} entries, head #${head.seq} ${head.hash}\n`,
    });

    const edited = lines.map((line) => line.replace('"outcome":"succeeded"', '"outcome":"refused"'));
    const editedAt = lines.findIndex((line, i) => line !== edited[i]);
    await writeFile(
      join(home.path, 'edited.jsonl'),
      `${[...lines.slice(0, editedAt), edited[editedAt], ...lines.slice(editedAt + 1)].join('\n')}\n`,
    );
    const victim = JSON.parse(lines[editedAt]!) as AuditEntry;
    expect(await offline(join(home.path, 'edited.jsonl'))).toEqual({
      code: 1,
      stdout: `FAILED: ${victim.id} (#${victim.chain!.seq}) was changed\n`,
    });
    const bySeq = lines
      .map((line) => JSON.parse(line) as AuditEntry)
      .sort((a, b) => a.chain!.seq - b.chain!.seq);
    const removed = lines.filter((line) => !line.includes(`"id":"${bySeq[9]!.id}"`));
    await writeFile(join(home.path, 'removed.jsonl'), `${removed.join('\n')}\n`);
    expect(await offline(join(home.path, 'removed.jsonl'))).toEqual({
      code: 1,
      stdout: 'FAILED: #10 was removed\n',
    });
    const twice = [...lines, lines[3]!.replace(/"id":"[^"]+"/, '"id":"aud_copy"')];
    await writeFile(join(home.path, 'inserted.jsonl'), `${twice.join('\n')}\n`);
    expect((await offline(join(home.path, 'inserted.jsonl'))).stdout).toMatch(
      /^FAILED: aud_\w+ \(#\d+\) was (inserted|changed)\n$/,
    );
    // CSV keeps the hashes as columns.
    const csv = await dogu('audit', 'export', '--project', project, '--format', 'csv');
    expect(csv.stdout.split('\r\n')[0]).toMatch(/,seq,prev_hash,hash$/);
    expect(csv.stdout).toContain(head.hash);
  });

  it('needs the right to read the audit log, and names a bad parameter', async () => {
    const anonymous = await fetch(`${runtime.url}${base}/chain`);
    expect(anonymous.status).toBe(401);
    const badLimit = await api.get(`${base}/chain?limit=0`);
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.parameter).toBe('limit');
    const badCursor = await api.get(`${base}/chain?cursor=nope`);
    expect(badCursor.body.parameter).toBe('cursor');
  });
});
