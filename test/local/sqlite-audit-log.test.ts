/**
 * The audit log in the embedded runtime's SQLite file (decision 0250): the same answers as on
 * DynamoDB (append-only, newest first, filters, pages, cursors), one chain per project, kept across a
 * reopen.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupCommits, type LocalDatabase, openLocalDatabase } from '../../local/sqlite/local-database.ts';
import { SqliteAuditLog } from '../../local/sqlite/sqlite-audit-log.ts';
import { ChainVerifier } from '../../shared/domain/audit-chain/verify.ts';
import { AlreadyExistsError } from '../../shared/domain/ports.ts';
import { auditLogContract, entry, minute } from '../support/audit-log-contract.ts';
import { tempDir } from '../support/runtime.ts';

let local: LocalDatabase;
let audit: SqliteAuditLog;
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  dir = await tempDir('sqlite-audit');
  local = await openLocalDatabase(join(dir.path, 'local.sqlite'));
  audit = new SqliteAuditLog(local);
});
afterAll(async () => {
  await local?.close();
  await dir?.remove();
});

describe('SqliteAuditLog', () => {
  auditLogContract(() => audit);

  it('chains each project: 40 appends at once, verified page by page, and the head survives a reopen', async () => {
    const chained = Array.from({ length: 40 }, (_, n) =>
      entry('chained', `aud_c${String(n).padStart(2, '0')}`, minute(n % 60)),
    );
    await Promise.all(chained.map((e) => audit.append(e)));
    const verifier = new ChainVerifier();
    let cursor: string | undefined;
    let head: Awaited<ReturnType<typeof audit.chainPage>>['head'];
    const pageSizes: number[] = [];
    do {
      const page = await audit.chainPage({ projectId: 'chained', limit: 15, ...(cursor ? { cursor } : {}) });
      for (const e of page.entries) expect(verifier.add(e)).toBe(true);
      pageSizes.push(page.entries.length);
      cursor = page.nextCursor;
      head = page.head;
    } while (cursor);
    expect(pageSizes).toEqual([15, 15, 10]);
    expect(verifier.finish(head)).toMatchObject({ ok: true, checked: 40 });
    expect(head).toMatchObject({ projectId: 'chained', seq: 40 });
    expect(await audit.heads()).toContainEqual(head);

    await local.close();
    local = await openLocalDatabase(join(dir.path, 'local.sqlite'));
    audit = new SqliteAuditLog(local);
    expect(await audit.head('chained')).toEqual(head);
    await audit.append(entry('chained', 'aud_after_reopen', minute(59)));
    expect(await audit.head('chained')).toMatchObject({ seq: 41, entryId: 'aud_after_reopen' });
  });

  it('keeps entries linked elsewhere as they are, once, and never moves a head back', async () => {
    const { entries } = await audit.list({ projectId: 'p1' });
    const before = await audit.head('p1');
    const oldest = entries.at(-1)!;
    audit.keepLinked([oldest, { ...oldest, details: { changed: true } }]);
    expect((await audit.list({ projectId: 'p1' })).entries).toEqual(entries);
    expect(await audit.head('p1')).toEqual(before);
  });

  it('refuses the same entry twice in one turn, and never stores an entry linked after a head that moved', async () => {
    const same = entry('turn', 'aud_same', minute(1));
    const [first, second] = await Promise.allSettled([audit.append(same), audit.append(same)]);
    expect(first.status).toBe('fulfilled');
    expect(second).toMatchObject({ status: 'rejected', reason: expect.any(AlreadyExistsError) });

    // A second log on the same file links after the same head: its entry is refused at the commit
    // (it would fork the chain); its next append links after what is stored.
    const other = new SqliteAuditLog(local);
    const [ours, theirs] = await Promise.allSettled([
      audit.append(entry('turn', 'aud_ours', minute(2))),
      other.append(entry('turn', 'aud_theirs', minute(2))),
    ]);
    expect(ours.status).toBe('fulfilled');
    expect(theirs).toMatchObject({
      status: 'rejected',
      reason: expect.objectContaining({ message: expect.stringMatching(/moved/) }),
    });
    await other.append(entry('turn', 'aud_theirs_again', minute(3)));
    const page = await audit.chainPage({ projectId: 'turn' });
    expect(page.entries.map((e) => e.id)).toEqual(['aud_same', 'aud_ours', 'aud_theirs_again']);
    const verifier = new ChainVerifier();
    for (const e of page.entries) expect(verifier.add(e)).toBe(true);
    expect(verifier.finish(page.head)).toMatchObject({ ok: true, checked: 3 });
  });
});

describe('GroupCommits', () => {
  it('commits the writes of one turn together; a write that throws is undone and rejected alone', async () => {
    const commits = new GroupCommits(local.db);
    local.db.exec('CREATE TABLE IF NOT EXISTS scratch (k TEXT PRIMARY KEY)');
    const insert = local.db.prepare('INSERT INTO scratch (k) VALUES (?)');
    const outcomes = await Promise.allSettled([
      commits.write(() => insert.run('a')),
      commits.write(() => {
        insert.run('b');
        throw new Error('refused');
      }),
      commits.write(() => insert.run('c')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(
      local.db
        .prepare('SELECT k FROM scratch ORDER BY k')
        .all()
        .map((row) => row.k),
    ).toEqual(['a', 'c']);
  });
});
