/**
 * What every AuditLog adapter answers alike (DynamoDB, the embedded runtime's SQLite): append-only,
 * newest first, filters, pages and cursors. Each adapter's test file runs it inside its own describe
 * and adds what only that adapter has.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditLog, AuditQuery } from '../../shared/domain/audit.ts';
import { DoguError } from '../../shared/domain/errors.ts';
import { AlreadyExistsError } from '../../shared/domain/ports.ts';

export const ann = { kind: 'user', id: 'usr_ann', email: 'ann@example.com' } as const;
export const bob = { kind: 'user', id: 'usr_bob', email: 'bob@example.com' } as const;

/** Minute `n` (< 60) of 10:00 UTC on 2026-11-22. */
export const minute = (n: number) => `2026-11-22T10:${String(n).padStart(2, '0')}:00.000Z`;

export function entry(
  projectId: string,
  id: string,
  at: string,
  fields: Partial<AuditEntry> = {},
): AuditEntry {
  return {
    id,
    projectId,
    at,
    actor: ann,
    origin: { sourceIp: '127.0.0.1', userAgent: 'vitest' },
    event: 'action.update',
    target: { type: 'action', id: 'list-orders' },
    outcome: 'succeeded',
    ...fields,
  };
}

/** Every entry a query matches, following cursors; also returns the page sizes. */
export async function everything(log: AuditLog, query: AuditQuery) {
  const ids: string[] = [];
  const pageSizes: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await log.list({ ...query, ...(cursor ? { cursor } : {}) });
    ids.push(...page.entries.map((e) => e.id));
    pageSizes.push(page.entries.length);
    cursor = page.nextCursor;
  } while (cursor);
  return { ids, pageSizes };
}

/** The 250 entries of the paging tests, and their ids as a log lists them. */
export interface PagedEntries {
  all: AuditEntry[];
  newestFirst: (entries: AuditEntry[]) => string[];
}

/** The shared tests; `log` is read at each use, since an adapter may reopen its log. */
export function auditLogContract(log: () => AuditLog, morePageTests?: (paged: PagedEntries) => void): void {
  beforeAll(async () => {
    await log().append(entry('p1', 'aud_1', minute(1)));
    await log().append(
      entry('p1', 'aud_2', minute(2), {
        actor: bob,
        event: 'execution.run',
        target: { type: 'action', id: 'count-orders' },
        environmentId: 'production',
        outcome: 'refused',
        details: { reason: 'missing right' },
      }),
    );
    await log().append(entry('p1', 'aud_3', minute(3), { event: 'action.delete' }));
    await log().append(
      entry('p1', 'aud_4', minute(4), {
        event: 'data_source.update',
        target: { type: 'data_source', id: 'shop' },
      }),
    );
    await log().append(entry('p1', 'aud_5', minute(5), { actor: bob, event: 'login', origin: undefined }));
    // Another project's entries never show up in p1's log.
    await log().append(entry('p2', 'aud_other', minute(3)));
  });

  it('lists a project newest first, entries as appended without storage attributes', async () => {
    const { entries, nextCursor } = await log().list({ projectId: 'p1' });
    expect(entries.map((e) => e.id)).toEqual(['aud_5', 'aud_4', 'aud_3', 'aud_2', 'aud_1']);
    expect(nextCursor).toBeUndefined();
    const { chain, ...fields } = entries[3]!;
    // Appended second in p1: place 2, after aud_1.
    expect(chain).toMatchObject({ seq: 2, prevHash: entries[4]!.chain!.hash });
    expect(fields).toEqual({
      id: 'aud_2',
      projectId: 'p1',
      at: minute(2),
      actor: bob,
      origin: { sourceIp: '127.0.0.1', userAgent: 'vitest' },
      event: 'execution.run',
      target: { type: 'action', id: 'count-orders' },
      environmentId: 'production',
      outcome: 'refused',
      details: { reason: 'missing right' },
    });
    expect(entries[0]).not.toHaveProperty('origin');
    expect((await log().list({ projectId: 'p2' })).entries.map((e) => e.id)).toEqual(['aud_other']);
    expect((await log().list({ projectId: 'nobody' })).entries).toEqual([]);
  });

  it('filters by time range, both ends inclusive, in any ISO zone', async () => {
    const ids = async (query: Omit<AuditQuery, 'projectId'>) =>
      (await log().list({ projectId: 'p1', ...query })).entries.map((e) => e.id);
    expect(await ids({ from: minute(2), to: minute(4) })).toEqual(['aud_4', 'aud_3', 'aud_2']);
    expect(await ids({ from: minute(4) })).toEqual(['aud_5', 'aud_4']);
    expect(await ids({ to: minute(1) })).toEqual(['aud_1']);
    expect(await ids({ from: '2026-11-22T19:03:00+09:00', to: '2026-11-22T19:03:00+09:00' })).toEqual([
      'aud_3',
    ]);
    expect(await ids({ from: minute(6) })).toEqual([]);
    expect(await ids({ from: minute(4), to: minute(2) })).toEqual([]);
  });

  it('filters by actor (its own index), exact event, event prefix and target, also combined', async () => {
    const ids = async (query: Omit<AuditQuery, 'projectId'>) =>
      (await log().list({ projectId: 'p1', ...query })).entries.map((e) => e.id);
    expect(await ids({ actorId: 'usr_bob' })).toEqual(['aud_5', 'aud_2']);
    expect(await ids({ actorId: 'usr_bob', from: minute(3) })).toEqual(['aud_5']);
    expect(await ids({ actorId: 'usr_nobody' })).toEqual([]);
    expect(await ids({ event: 'action.update' })).toEqual(['aud_1']);
    expect(await ids({ event: 'action.' })).toEqual(['aud_3', 'aud_1']);
    // Without the trailing dot an event is exact: 'action' is not a prefix of 'action.update'.
    expect(await ids({ event: 'action' })).toEqual([]);
    expect(await ids({ targetId: 'count-orders' })).toEqual(['aud_2']);
    expect(await ids({ targetId: 'list-orders', event: 'action.' })).toEqual(['aud_3', 'aud_1']);
    expect(await ids({ actorId: 'usr_ann', event: 'data_source.', to: minute(4) })).toEqual(['aud_4']);
  });

  it('refuses to append an entry twice and keeps the first (append-only)', async () => {
    const again = entry('p1', 'aud_1', minute(1), { event: 'action.delete', details: { forged: true } });
    await expect(log().append(again)).rejects.toBeInstanceOf(AlreadyExistsError);
    const [first] = (await log().list({ projectId: 'p1', from: minute(1), to: minute(1) })).entries;
    expect(first).toMatchObject({ id: 'aud_1', event: 'action.update' });
    expect(first).not.toHaveProperty('details');
  });

  it('refuses an entry whose time is not written as toISOString writes it (it would sort wrongly)', async () => {
    await expect(log().append(entry('p1', 'aud_x', '2026-11-22T19:00:00+09:00'))).rejects.toThrow(
      /toISOString/,
    );
  });

  describe('pages', () => {
    // 250 entries in ten minutes, five per second: several share each second, and ids decide
    // their order there. Every third one updates an action of its own; the rest are runs by Bob.
    const all = Array.from({ length: 250 }, (_, i) =>
      entry(
        'big',
        `aud_${String(i).padStart(3, '0')}`,
        `2026-11-23T00:00:${String(Math.floor(i / 5)).padStart(2, '0')}.000Z`,
        {
          ...(i % 3 === 0
            ? { event: 'action.update', target: { type: 'action', id: `a${i}` } }
            : { event: 'execution.run', actor: bob, target: { type: 'action', id: 'list-orders' } }),
        },
      ),
    );
    const newestFirst = (entries: AuditEntry[]) =>
      [...entries].sort((a, b) => (`${a.at}#${a.id}` < `${b.at}#${b.id}` ? 1 : -1)).map((e) => e.id);

    beforeAll(async () => {
      for (let i = 0; i < all.length; i += 25)
        await Promise.all(all.slice(i, i + 25).map((e) => log().append(e)));
    });

    it('pages through everything with a limit, nothing lost or repeated', async () => {
      const { ids, pageSizes } = await everything(log(), { projectId: 'big', limit: 100 });
      expect(ids).toEqual(newestFirst(all));
      expect(pageSizes).toEqual([100, 100, 50]);
      const first = await log().list({ projectId: 'big', limit: 250 });
      expect(first.entries).toHaveLength(250);
      expect(first.nextCursor).toBeUndefined();
    });

    it('pages with filters: every page full until the end', async () => {
      const updates = all.filter((e) => e.event === 'action.update');
      const byEvent = await everything(log(), { projectId: 'big', event: 'action.', limit: 30 });
      expect(byEvent.ids).toEqual(newestFirst(updates));
      expect(byEvent.pageSizes).toEqual([30, 30, 24]);

      const byActor = await everything(log(), { projectId: 'big', actorId: 'usr_bob', limit: 70 });
      expect(byActor.ids).toEqual(newestFirst(all.filter((e) => e.actor.id === 'usr_bob')));
      expect(byActor.pageSizes).toEqual([70, 70, 26]);

      const windowed = all.filter(
        (e) =>
          e.event === 'action.update' &&
          e.at >= '2026-11-23T00:00:10.000Z' &&
          e.at <= '2026-11-23T00:00:20.000Z',
      );
      const inWindow = await everything(log(), {
        projectId: 'big',
        event: 'action.update',
        from: '2026-11-23T00:00:10Z',
        to: '2026-11-23T00:00:20Z',
        limit: 4,
      });
      expect(inWindow.ids).toEqual(newestFirst(windowed));
      expect(windowed.length).toBeGreaterThan(8);
    });

    morePageTests?.({ all, newestFirst });

    it('a limit is clamped to 1–1000 by the adapter (the use case refuses others)', async () => {
      expect((await log().list({ projectId: 'big', limit: 0 })).entries).toHaveLength(1);
      expect((await log().list({ projectId: 'big', limit: 5000 })).entries).toHaveLength(250);
    });
  });

  it('refuses a cursor it did not issue with a 400 naming the cursor, never a failure', async () => {
    const cursors = [
      'not a cursor!',
      'eyJzayI6MX0', // {"sk":1}
      Buffer.from('{"sk":"PROJECT#p1"}').toString('base64url'),
      Buffer.from('[').toString('base64url'),
      'x'.repeat(2000),
    ];
    for (const cursor of cursors) {
      const refusal = await log()
        .list({ projectId: 'p1', cursor })
        .catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(DoguError);
      expect(refusal).toMatchObject({ code: 'bad_request', extra: { parameter: 'cursor' } });
    }
  });

  it('a well-formed cursor only ever means "older than this", whatever project or filter it came from', async () => {
    const { nextCursor } = await log().list({ projectId: 'big', limit: 1 });
    const page = await log().list({ projectId: 'p1', cursor: nextCursor! });
    // big's newest entry is later than all of p1's, so p1 pages from its own newest.
    expect(page.entries.map((e) => e.id)).toEqual(['aud_5', 'aud_4', 'aud_3', 'aud_2', 'aud_1']);
    const crafted = Buffer.from(JSON.stringify({ sk: `${minute(3)}#aud_3` })).toString('base64url');
    expect((await log().list({ projectId: 'p1', cursor: crafted })).entries.map((e) => e.id)).toEqual([
      'aud_2',
      'aud_1',
    ]);
    expect((await log().list({ projectId: 'p1', cursor: crafted, from: minute(4) })).entries).toEqual([]);
  });
}
