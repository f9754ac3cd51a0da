/**
 * Records the embedded runtime must not lose but need not write to the store
 * on the request's path: each is appended to a journal file before the caller
 * is answered (records that arrive together share one write), kept in memory,
 * and moved to the store in batches in the background. A start-up replays
 * what a crash left. A record the store refuses is quarantined (decision 0025): it never blocks the
 * others or the next start. Used for execution records and audit entries.
 */
import { writeSync } from 'node:fs';
import { appendFile, type FileHandle, mkdir, open, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { logger } from '../shared/commons/logger.ts';

/** How often journaled records move to the store; tests of crash safety set it high. */
const flushEveryMs = Number(process.env.DOGU_JOURNAL_FLUSH_MS ?? 100);
const batchSize = 100;
/** Batches stored at once by a flush. */
const parallelBatches = 4;
/**
 * At most this many records wait in memory for the store. Past it an append waits for the store to
 * take some (backpressure): the bound that keeps memory flat when the store is slow or unreachable,
 * without dropping a record. About 1–2 KB each in memory: at most ~10 MB per journal.
 */
const maxPending = Number(process.env.DOGU_JOURNAL_MAX_PENDING ?? 5_000);

export class WriteBehindJournal<T extends { id: string }> {
  readonly pending = new Map<string, T>();
  /** Appends and truncations run one after another through this chain. */
  private queue: Promise<unknown> = Promise.resolve();
  private lines: string[] = [];
  private nextAppend: Promise<void> | undefined;
  private flushing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;
  /** Set while the store cannot be reached: said once in the log, and once when it is back. */
  private unreachableSince: number | undefined;

  private readonly fd: number;

  private constructor(
    private readonly file: FileHandle,
    private readonly store: (records: T[]) => Promise<void>,
    private readonly what: string,
    private readonly quarantinePath: string,
  ) {
    this.fd = file.fd;
    this.timer = setInterval(() => void this.flush(), flushEveryMs);
    this.timer.unref();
  }

  /**
   * Opens the journal at `path`, first storing whatever a previous run left in it. A record the store
   * refuses goes to quarantine/<what>.jsonl beside the journal: it never stops the start.
   */
  static async open<T extends { id: string }>(
    path: string,
    store: (records: T[]) => Promise<void>,
    what: string,
  ): Promise<WriteBehindJournal<T>> {
    const leftover = await readJournal<T>(path, what);
    const file = await open(path, 'a', 0o600);
    const journal = new WriteBehindJournal(
      file,
      store,
      what,
      join(dirname(path), 'quarantine', `${what}.jsonl`),
    );
    // The latest version of each record is the one to store.
    for (const record of leftover) journal.pending.set(record.id, record);
    if (leftover.length > 0) {
      await journal.flush();
      logger.info('journal replayed', { journal: what, records: leftover.length });
    } else {
      await file.truncate(0);
    }
    return journal;
  }

  /**
   * Resolves once the record is in the journal file; a crash after that loses nothing. Records that
   * arrive in one turn of the event loop share one write (decision 0060): a synchronous append of a
   * few hundred bytes to the page cache costs less than the thread-pool round trip and promise
   * machinery of `FileHandle.appendFile`, which was ~9 % of the runtime's CPU under load. A record
   * written twice before the flush (e.g. "running", then its outcome) is stored once, in its last
   * version.
   */
  async append(record: T): Promise<void> {
    while (this.pending.size >= maxPending && !this.pending.has(record.id)) await this.makeRoom();
    // The line is the copy: JSON text cannot be changed by the caller mutating the record afterwards,
    // and it is also what a replay reads back.
    const line = JSON.stringify(record);
    const copy = JSON.parse(line) as T;
    this.pending.set(copy.id, copy);
    this.lines.push(line);
    this.nextAppend ??= new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        this.nextAppend = undefined;
        const text = `${this.lines.join('\n')}\n`;
        this.lines = [];
        // After any truncation already queued, never before it.
        this.enqueue(async () => writeSync(this.fd, text)).then(() => resolve(), reject);
      });
    });
    await this.nextAppend;
  }

  /** Records waiting to be stored, and the most that may wait (the runtime's metrics show it). */
  stats(): { size: number; max: number } {
    return { size: this.pending.size, max: maxPending };
  }

  private async makeRoom(): Promise<void> {
    await this.flush();
    if (this.pending.size >= maxPending) await new Promise((resolve) => setTimeout(resolve, flushEveryMs));
  }

  /** Stores pending records; the journal is emptied once nothing is pending. */
  flush(): Promise<void> {
    this.flushing ??= this.flushPending().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async flushPending(): Promise<void> {
    while (this.pending.size > 0) {
      const records = [...this.pending.values()].slice(0, batchSize * parallelBatches);
      const batches: T[][] = [];
      for (let i = 0; i < records.length; i += batchSize) batches.push(records.slice(i, i + batchSize));
      // Several batches in flight: one at a time, the store's round trips (not its work) bounded how
      // fast records left, and under sustained load the backlog grew by ~250 records/s (decision 0062).
      const outcomes = await Promise.all(batches.map((batch) => this.storeBatch(batch)));
      if (outcomes.includes('unreachable')) return;
      if (this.unreachableSince !== undefined) {
        logger.info('journaled records are being stored again', {
          journal: this.what,
          afterMs: Date.now() - this.unreachableSince,
        });
        this.unreachableSince = undefined;
      }
    }
    await this.enqueue(async () => {
      if (this.pending.size === 0) await this.file.truncate(0);
    });
  }

  private async storeBatch(batch: T[]): Promise<'stored' | 'unreachable'> {
    try {
      await this.store(batch);
      this.settle(batch);
      return 'stored';
    } catch (error) {
      if (this.isUnreachable(error)) return 'unreachable';
      // Something in the batch is refused: one by one, so only the refused records leave.
      for (const record of batch) {
        try {
          await this.store([record]);
        } catch (refusal) {
          if (this.isUnreachable(refusal)) return 'unreachable';
          await this.quarantine(record, refusal);
        }
        this.settle([record]);
      }
      return 'stored';
    }
  }

  private settle(records: T[]): void {
    for (const record of records) {
      // A newer version of the same record may have arrived meanwhile: keep that one.
      if (this.pending.get(record.id) === record) this.pending.delete(record.id);
    }
  }

  /** A store that cannot be reached now is retried (said once); any other error is a refusal. */
  private isUnreachable(error: unknown): boolean {
    if (!isTransient(error)) return false;
    if (this.unreachableSince === undefined) {
      this.unreachableSince = Date.now();
      logger.warn('journaled records not yet stored; will retry', {
        journal: this.what,
        reason: messageOf(error),
      });
    }
    return true;
  }

  /** Keeps a record the store refuses out of the way, where an operator can look at it. */
  private async quarantine(record: T, refusal: unknown): Promise<void> {
    const line = JSON.stringify({
      quarantinedAt: new Date().toISOString(),
      journal: this.what,
      reason: messageOf(refusal),
      record,
    });
    await mkdir(dirname(this.quarantinePath), { recursive: true, mode: 0o700 });
    await appendFile(this.quarantinePath, `${line}\n`, { mode: 0o600 });
    logger.warn('the store refused a journaled record; it is kept in quarantine', {
      journal: this.what,
      id: record.id,
      file: this.quarantinePath,
      reason: messageOf(refusal),
    });
  }

  private enqueue<R>(task: () => Promise<R>): Promise<R> {
    const next = this.queue.then(task);
    this.queue = next.catch(() => {});
    return next;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    await this.queue;
    await this.file.close();
  }
}

/**
 * Errors that say the store cannot be reached or is busy now: worth retrying. Anything else (a
 * validation error, a value the client cannot marshal) is the store refusing that record.
 */
function isTransient(error: unknown): boolean {
  const e = error as {
    name?: string;
    code?: string;
    $retryable?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  if (e?.$retryable) return true;
  if (typeof e?.code === 'string' && /^E[A-Z]+$/.test(e.code)) return true;
  if ((e?.$metadata?.httpStatusCode ?? 0) >= 500) return true;
  return transientNames.has(e?.name ?? '') || /unprocessed after retries/.test(messageOf(error));
}

const transientNames = new Set([
  'TimeoutError',
  'AbortError',
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
]);

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function readJournal<T>(path: string, what: string): Promise<T[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return [];
    throw error;
  }
  const records: T[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      records.push(JSON.parse(line) as T);
    } catch {
      // The last line of a crash may be cut short: its caller never got an answer.
      logger.warn('skipped an incomplete journal line', { journal: what });
    }
  }
  return records;
}
