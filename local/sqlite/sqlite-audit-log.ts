/**
 * The audit log in the embedded runtime's SQLite file (decision 0250): a project's entries keyed by
 * `<at>#<id>` as on DynamoDB (same order, same cursors), an actor index, and each project's chain
 * head. An append links the entry after the head and writes entry and head in one transaction, in
 * this thread, with nothing awaited in between: appends cannot interleave, so the chain never forks
 * (decision 0180), and a kill leaves both written or neither.
 */
import {
  auditEntryOf,
  auditSortKey,
  auditSortKeyRange,
  checkAuditTime,
  clampAuditLimit,
  decodeAuditCursor,
  defaultAuditPageSize,
  encodeAuditCursor,
  maxAuditPageSize,
} from '../../shared/adapters/audit-sort-key.ts';
import type {
  AuditEntry,
  AuditLog,
  AuditQuery,
  ChainHead,
  ChainLink,
  ChainPage,
  ChainPageQuery,
} from '../../shared/domain/audit.ts';
import { headOf, linkAfter } from '../../shared/domain/audit-chain/link.ts';
import { AlreadyExistsError } from '../../shared/domain/ports.ts';
import { type DatabaseSync, type GroupCommits, inTransaction, type LocalDatabase } from './local-database.ts';

type Linked = AuditEntry & { chain: ChainLink };

export class SqliteAuditLog implements AuditLog {
  /**
   * Where the next entry of a project links: the stored head, or the last entry linked and waiting
   * for its commit. One process owns the file, so this stays exact.
   */
  private readonly linkedHeads = new Map<string, ChainHead | undefined>();
  /** Entries linked and waiting for their commit, by project and sort key. */
  private readonly waiting = new Set<string>();
  private readonly insertEntry;
  private readonly insertEntryIfNew;
  private readonly readHead;
  private readonly writeHead;
  private readonly allHeads;
  private readonly commits: GroupCommits;
  private readonly db: DatabaseSync;

  constructor(local: Pick<LocalDatabase, 'db' | 'commits'>) {
    const { db } = local;
    this.db = db;
    this.commits = local.commits;
    const insert = `INTO audit_entries (project_id, sort_key, actor_id, event, target_id, entry)
      VALUES (?, ?, ?, ?, ?, ?)`;
    this.insertEntry = db.prepare(`INSERT ${insert}`);
    this.insertEntryIfNew = db.prepare(`INSERT OR IGNORE ${insert}`);
    this.readHead = db.prepare('SELECT seq, hash, entry_id, at FROM audit_heads WHERE project_id = ?');
    // A head never moves back: a replayed or migrated older entry leaves a newer head in place.
    this.writeHead = db.prepare(
      `INSERT INTO audit_heads (project_id, seq, hash, entry_id, at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (project_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash,
         entry_id = excluded.entry_id, at = excluded.at
       WHERE excluded.seq > audit_heads.seq`,
    );
    this.allHeads = db.prepare('SELECT project_id, seq, hash, entry_id, at FROM audit_heads');
  }

  /**
   * Stored and linked when this resolves; AlreadyExistsError for an entry with this time and id. The
   * entry is linked at once (so entries of one turn of the event loop share a commit) and written
   * with the head in one commit, which checks that the head is still the one it linked after: if an
   * earlier entry's write failed, the entries linked after it fail too rather than break the chain.
   */
  async append(entry: AuditEntry): Promise<void> {
    const { chain: _given, ...fields } = entry;
    checkAuditTime(fields.at);
    const { projectId } = fields;
    const sortKey = auditSortKey(fields);
    const key = `${projectId}\u0000${sortKey}`;
    if (this.waiting.has(key)) throw new AlreadyExistsError(`audit entry ${fields.id}`);
    const linked = linkAfter(this.linkedHead(projectId), fields);
    this.linkedHeads.set(projectId, headOf(linked));
    this.waiting.add(key);
    try {
      await this.commits.write(() => {
        const stored = this.storedHead(projectId);
        if ((stored?.seq ?? 0) !== linked.chain.seq - 1 || (stored && stored.hash !== linked.chain.prevHash))
          throw new Error(`The audit chain of ${projectId} moved before entry ${fields.id} was written.`);
        try {
          this.insertEntry.run(...rowOf(linked));
        } catch (error) {
          if ((error as { errcode?: number }).errcode === primaryKeyConflict)
            throw new AlreadyExistsError(`audit entry ${fields.id}`);
          throw error;
        }
        this.moveHead(headOf(linked));
      });
    } catch (error) {
      // Link the next entry after what is stored.
      this.linkedHeads.delete(projectId);
      throw error;
    } finally {
      this.waiting.delete(key);
    }
  }

  /**
   * Keeps entries linked elsewhere as they are (an older version's journal, the move from dynalite):
   * an entry already here is left alone, and each project's head moves to its latest place.
   */
  keepLinked(entries: AuditEntry[]): void {
    inTransaction(this.db, () => {
      for (const entry of entries) {
        checkAuditTime(entry.at);
        this.insertEntryIfNew.run(...rowOf(entry));
        if (entry.chain) this.moveHead(headOf(entry as Linked));
      }
    });
    this.linkedHeads.clear();
  }

  /** Sets heads read from elsewhere (dynalite's head items), unless a later one is here. */
  keepHeads(heads: ChainHead[]): void {
    inTransaction(this.db, () => {
      for (const head of heads) this.moveHead(head);
    });
    this.linkedHeads.clear();
  }

  /** The head as stored (committed), like the entries every read answers with. */
  async head(projectId: string): Promise<ChainHead | undefined> {
    return this.storedHead(projectId);
  }

  async heads(): Promise<ChainHead[]> {
    return this.allHeads.all().map((row) => ({
      projectId: String(row.project_id),
      seq: Number(row.seq),
      hash: String(row.hash),
      entryId: String(row.entry_id),
      at: String(row.at),
    }));
  }

  /** Every entry of a project oldest first (time, then id), as stored, with the head. */
  async chainPage(query: ChainPageQuery): Promise<ChainPage> {
    const limit = clampAuditLimit(query.limit, maxAuditPageSize);
    const after = query.cursor === undefined ? '' : decodeAuditCursor(query.cursor);
    const rows = this.db
      .prepare(
        `SELECT sort_key, entry FROM audit_entries WHERE project_id = ? AND sort_key > ?
         ORDER BY sort_key LIMIT ?`,
      )
      .all(query.projectId, after, limit + 1);
    const page = rows.slice(0, limit);
    const head = this.storedHead(query.projectId);
    return {
      entries: page.map((row) => auditEntryOf(JSON.parse(row.entry as string))),
      ...(rows.length > limit ? { nextCursor: encodeAuditCursor(String(page.at(-1)!.sort_key)) } : {}),
      ...(head ? { head } : {}),
    };
  }

  /** Newest first; filters are SQL conditions, so every page is full unless the log ends. */
  async list(query: AuditQuery): Promise<{ entries: AuditEntry[]; nextCursor?: string }> {
    const limit = clampAuditLimit(query.limit, defaultAuditPageSize);
    const position = query.cursor === undefined ? undefined : decodeAuditCursor(query.cursor);
    const range = auditSortKeyRange(query.from, query.to, position);
    if (!range) return { entries: [] };
    const conditions = ['project_id = ?'];
    const values: (string | number)[] = [query.projectId];
    const where = (condition: string, ...bound: (string | number)[]) => {
      conditions.push(condition);
      values.push(...bound);
    };
    if (query.actorId !== undefined) where('actor_id = ?', query.actorId);
    if (range.lower !== undefined) where('sort_key >= ?', range.lower);
    // The entry at the cursor was on the previous page.
    if (position !== undefined && range.upper === position) where('sort_key < ?', position);
    else if (range.upper !== undefined) where('sort_key <= ?', range.upper);
    if (query.event !== undefined) {
      if (query.event.endsWith('.')) where('substr(event, 1, ?) = ?', query.event.length, query.event);
      else where('event = ?', query.event);
    }
    if (query.targetId !== undefined) where('target_id = ?', query.targetId);
    const rows = this.db
      .prepare(
        `SELECT sort_key, entry FROM audit_entries WHERE ${conditions.join(' AND ')}
         ORDER BY sort_key DESC LIMIT ?`,
      )
      .all(...values, limit + 1);
    const page = rows.slice(0, limit);
    return {
      entries: page.map((row) => auditEntryOf(JSON.parse(row.entry as string))),
      ...(rows.length > limit ? { nextCursor: encodeAuditCursor(String(page.at(-1)!.sort_key)) } : {}),
    };
  }

  private linkedHead(projectId: string): ChainHead | undefined {
    if (!this.linkedHeads.has(projectId)) this.linkedHeads.set(projectId, this.storedHead(projectId));
    return this.linkedHeads.get(projectId);
  }

  private storedHead(projectId: string): ChainHead | undefined {
    const row = this.readHead.get(projectId);
    return row
      ? {
          projectId,
          seq: Number(row.seq),
          hash: String(row.hash),
          entryId: String(row.entry_id),
          at: String(row.at),
        }
      : undefined;
  }

  private moveHead(head: ChainHead): void {
    this.writeHead.run(head.projectId, head.seq, head.hash, head.entryId, head.at);
  }
}

function rowOf(entry: AuditEntry): [string, string, string, string, string, string] {
  return [
    entry.projectId,
    auditSortKey(entry),
    entry.actor.id,
    entry.event,
    entry.target.id,
    JSON.stringify(entry),
  ];
}

/** SQLITE_CONSTRAINT_PRIMARYKEY: an entry with this project, time and id is stored already. */
const primaryKeyConflict = 1555;
