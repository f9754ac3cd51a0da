/**
 * Records the embedded runtime must not lose but need not write to the store
 * on the request's path: each is appended to a journal file before the caller
 * is answered (records that arrive together share one write), kept in memory,
 * and moved to the store in batches in the background. A start-up replays
 * what a crash left. Used for execution records and audit entries.
 */
import { type FileHandle, open, readFile } from 'node:fs/promises';
import { logger } from '../shared/commons/logger.ts';

/** How often journaled records move to the store; tests of crash safety set it high. */
const flushEveryMs = Number(process.env.DOGU_JOURNAL_FLUSH_MS ?? 100);
const batchSize = 100;

export class WriteBehindJournal<T extends { id: string }> {
  readonly pending = new Map<string, T>();
  /** Appends and truncations run one after another through this chain. */
  private queue: Promise<unknown> = Promise.resolve();
  private lines: string[] = [];
  private nextAppend: Promise<void> | undefined;
  private flushing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;

  private constructor(
    private readonly file: FileHandle,
    private readonly store: (records: T[]) => Promise<void>,
    private readonly what: string,
  ) {
    this.timer = setInterval(() => void this.flush(), flushEveryMs);
    this.timer.unref();
  }

  /** Opens the journal at `path`, first storing whatever a previous run left in it. */
  static async open<T extends { id: string }>(
    path: string,
    store: (records: T[]) => Promise<void>,
    what: string,
  ): Promise<WriteBehindJournal<T>> {
    const leftover = await readJournal<T>(path, what);
    if (leftover.length > 0) {
      await store(leftover);
      logger.info('journal replayed', { journal: what, records: leftover.length });
    }
    const file = await open(path, 'a', 0o600);
    await file.truncate(0);
    return new WriteBehindJournal(file, store, what);
  }

  /** Resolves once the record is in the journal file; a crash after that loses nothing. */
  async append(record: T): Promise<void> {
    const copy = structuredClone(record);
    this.pending.set(copy.id, copy);
    this.lines.push(`${JSON.stringify(copy)}\n`);
    this.nextAppend ??= this.enqueue(async () => {
      this.nextAppend = undefined;
      const lines = this.lines;
      this.lines = [];
      await this.file.appendFile(lines.join(''));
    });
    await this.nextAppend;
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
      const batch = [...this.pending.values()].slice(0, batchSize);
      try {
        await this.store(batch);
      } catch (error) {
        logger.warn('journaled records not yet stored; will retry', {
          journal: this.what,
          error: error as Error,
        });
        return;
      }
      for (const record of batch) {
        // A newer version of the same record may have arrived meanwhile: keep that one.
        if (this.pending.get(record.id) === record) this.pending.delete(record.id);
      }
    }
    await this.enqueue(async () => {
      if (this.pending.size === 0) await this.file.truncate(0);
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

async function readJournal<T>(path: string, what: string): Promise<T[]> {
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
