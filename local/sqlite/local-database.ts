/**
 * The embedded runtime's own SQLite file (`<dataDir>/local.sqlite`) for the records on the execution
 * path: execution records and audit entries (decision 0250). Opened with Node's built-in
 * `node:sqlite`, in this thread: a write is a synchronous call, no request to another thread or
 * process. Write-ahead log with `synchronous=NORMAL`: a commit is in the log file (the OS's page
 * cache) when the call returns, so a killed process loses nothing it acknowledged; only a power
 * loss may lose the last commits, as with the LevelDB underneath dynalite. Each write is one
 * transaction, so a record and its index entries are stored together or not at all.
 */
import { once } from 'node:events';
import { createRequire } from 'node:module';
import type { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { logger } from '../../shared/commons/logger.ts';

export type { DatabaseSync } from 'node:sqlite';

export interface LocalDatabaseOptions {
  /** `FULL` also survives a power loss, at one fsync per commit (decision 0250 measured it). */
  synchronous?: 'NORMAL' | 'FULL';
  /**
   * Checkpoints (the log copied into the database file, then fsync) in a worker thread every this
   * many ms; 0: SQLite's own, in the thread that commits. Default 1000.
   */
  checkpointEveryMs?: number;
}

export interface LocalDatabase {
  db: DatabaseSync;
  /** How the stores write on the request path (one commit per turn of the event loop). */
  commits: GroupCommits;
  close(): Promise<void>;
}

/** Schema changes, in order; `PRAGMA user_version` says how many a file already has. */
const migrations: readonly string[] = [
  `CREATE TABLE executions (
     id TEXT PRIMARY KEY,
     status TEXT NOT NULL,
     deadline_at TEXT,
     record TEXT NOT NULL
   );
   CREATE INDEX executions_live ON executions (deadline_at)
     WHERE status = 'running' AND deadline_at IS NOT NULL;
   CREATE TABLE audit_entries (
     project_id TEXT NOT NULL,
     sort_key TEXT NOT NULL,
     actor_id TEXT NOT NULL,
     event TEXT NOT NULL,
     target_id TEXT NOT NULL,
     entry TEXT NOT NULL,
     PRIMARY KEY (project_id, sort_key)
   ) WITHOUT ROWID;
   CREATE INDEX audit_entries_by_actor ON audit_entries (project_id, actor_id, sort_key);
   CREATE TABLE audit_heads (
     project_id TEXT PRIMARY KEY,
     seq INTEGER NOT NULL,
     hash TEXT NOT NULL,
     entry_id TEXT NOT NULL,
     at TEXT NOT NULL
   );
   CREATE TABLE markers (name TEXT PRIMARY KEY, at TEXT NOT NULL);`,
];

export async function openLocalDatabase(
  path: string,
  options: LocalDatabaseOptions = {},
): Promise<LocalDatabase> {
  const { DatabaseSync } = loadSqlite();
  const db = new DatabaseSync(path);
  const checkpointEveryMs = options.checkpointEveryMs ?? 1000;
  let checkpoints: Worker | undefined;
  try {
    db.exec('PRAGMA journal_mode = WAL');
    db.exec(`PRAGMA synchronous = ${options.synchronous ?? 'NORMAL'}`);
    // The log is cut back to this size when it starts over, so a burst does not keep its size on disk.
    db.exec(`PRAGMA journal_size_limit = ${64 * 1024 * 1024}`);
    const version = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
    for (let next = version; next < migrations.length; next++) {
      inTransaction(db, () => {
        db.exec(migrations[next]!);
        db.exec(`PRAGMA user_version = ${next + 1}`);
      });
    }
    if (checkpointEveryMs > 0) {
      db.exec('PRAGMA wal_autocheckpoint = 0');
      checkpoints = await startCheckpoints(path, checkpointEveryMs);
    }
  } catch (error) {
    db.close();
    throw error;
  }
  const commits = new GroupCommits(db);
  return {
    db,
    commits,
    async close() {
      commits.commitWaiting();
      if (checkpoints) {
        // Kept alive until it answers, even when nothing else is left in the event loop.
        checkpoints.ref();
        checkpoints.postMessage('close');
        await once(checkpoints, 'message');
        await checkpoints.terminate();
      }
      // The last connection to close checkpoints what is left and removes the log.
      db.close();
    },
  };
}

async function startCheckpoints(path: string, everyMs: number): Promise<Worker> {
  const worker = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), {
    workerData: { path, everyMs },
  });
  const [first] = (await Promise.race([
    once(worker, 'message'),
    once(worker, 'error').then(([error]) => {
      throw new Error(`The SQLite checkpoint thread could not start: ${(error as Error).message}`);
    }),
  ])) as [{ type: string }];
  if (first.type !== 'ready') throw new Error('The SQLite checkpoint thread could not start.');
  worker.on('message', (message: { type: string; message?: string }) => {
    // The log grows until a checkpoint succeeds again; nothing is lost meanwhile.
    if (message.type === 'failed') logger.warn('SQLite checkpoint failed', { reason: message.message });
  });
  worker.unref();
  return worker;
}

/** Runs `work` in one transaction: all of its writes are stored, or none. */
export function inTransaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Writes that arrive in one turn of the event loop share one transaction: one commit, one write to
 * the log, however many requests wrote (under load most commits carried dozens of writes). Each write
 * resolves after that commit, so nothing is acknowledged before it is stored; each runs in a
 * savepoint of its own, so a write that throws is undone and rejected alone.
 */
export class GroupCommits {
  private queue: { work: () => void; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;
  /** Prepared once: `exec` would parse each of them again for every write. */
  private readonly sql;

  constructor(private readonly db: DatabaseSync) {
    const prepared = (text: string) => db.prepare(text);
    this.sql = {
      begin: prepared('BEGIN IMMEDIATE'),
      commit: prepared('COMMIT'),
      savepoint: prepared('SAVEPOINT one_write'),
      release: prepared('RELEASE one_write'),
      rollbackTo: prepared('ROLLBACK TO one_write'),
    };
  }

  write(work: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ work, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.commit());
    });
  }

  /** Commits what is waiting now rather than at the end of this turn (before the database closes). */
  commitWaiting(): void {
    if (this.queue.length > 0) this.commit();
  }

  private commit(): void {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    const writes = this.queue;
    this.queue = [];
    const written: typeof writes = [];
    const { sql } = this;
    try {
      sql.begin.run();
      for (const write of writes) {
        sql.savepoint.run();
        try {
          write.work();
          sql.release.run();
          written.push(write);
        } catch (error) {
          sql.rollbackTo.run();
          sql.release.run();
          write.reject(error);
        }
      }
      sql.commit.run();
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      for (const write of written) write.reject(error);
      return;
    }
    for (const write of written) write.resolve();
  }
}

/**
 * Node 22 says once per process that `node:sqlite` is experimental (on stderr, at load). The API
 * used here is stable in later Node versions; only that one warning is held back, any other is
 * emitted as usual.
 */
export function loadSqlite(): typeof import('node:sqlite') {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const message = typeof warning === 'string' ? warning : warning.message;
    const kind = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if (kind === 'ExperimentalWarning' && message.startsWith('SQLite is an experimental feature')) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return createRequire(import.meta.url)('node:sqlite') as typeof import('node:sqlite');
  } finally {
    process.emitWarning = emitWarning;
  }
}
