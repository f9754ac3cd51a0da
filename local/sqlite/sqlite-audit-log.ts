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
import { type DatabaseSync, inTransaction } from './local-database.ts';

type Linked = AuditEntry & { chain: ChainLink };

export class SqliteAuditLog implements AuditLog {
  /** Heads read or written by this process; one process owns the file, so they stay exact. */
  private readonly heads_ = new Map<string, ChainHead | undefined>();
  private readonly insertEntry;
  private readonly insertEntryIfNew;
  private readonly readHead;
  private readonly writeHead;
  private readonly allHeads;

  constructor(private readonly db: DatabaseSync) {
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

  /** Stored and linked when this resolves; AlreadyExistsError for an entry with this time and id. */
  async append(entry: AuditEntry): Promise<void> {
    const { chain: _given, ...fields } = entry;
    checkAuditTime(fields.at);
    const linked = linkAfter(this.headOf(fields.projectId), fields);
    inTransaction(this.db, () => {
      try {
        this.insertEntry.run(...rowOf(linked));
      } catch (error) {
        if ((error as { errcode?: number }).errcode === sqlitePrimaryKeyConflict)
          throw new AlreadyExistsError(`audit entry ${fields.id}`);
        throw error;
      }
      this.moveHead(headOf(linked));
    });
    this.heads_.set(fields.projectId, headOf(linked));
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
    this.heads_.clear();
  }

  /** Sets heads read from elsewhere (dynalite's head items), unless a later one is here. */
  keepHeads(heads: ChainHead[]): void {
    inTransaction(this.db, () => {
      for (const head of heads) this.moveHead(head);
    });
    this.heads_.clear();
  }

  async head(projectId: string): Promise<ChainHead | undefined> {
    return this.headOf(projectId);
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
    const head = this.headOf(query.projectId);
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

  private headOf(projectId: string): ChainHead | undefined {
    if (this.heads_.has(projectId)) return this.heads_.get(projectId);
    const row = this.readHead.get(projectId);
    const head = row
      ? {
          projectId,
          seq: Number(row.seq),
          hash: String(row.hash),
          entryId: String(row.entry_id),
          at: String(row.at),
        }
      : undefined;
    this.heads_.set(projectId, head);
    return head;
  }

  private moveHead(head: ChainHead): void {
    this.writeHead.run(head.projectId, head.seq, head.hash, head.entryId, head.at);
  }
}

/** SQLITE_CONSTRAINT_PRIMARYKEY: an entry with this project, time and id is stored already. */
const sqlitePrimaryKeyConflict = 1555;

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
