/**
 * Execution records in the embedded runtime: each one is appended to a journal
 * file before the caller gets its answer (so a crash, even kill -9, loses
 * nothing), then written to the store in the background in batches. A write
 * to dynalite costs milliseconds; an append costs microseconds, and a batch
 * of 25 costs about as much as one write. Records not yet in the store are
 * served from memory; on start-up the journal is replayed into the store.
 */
import { type FileHandle, open, readFile } from 'node:fs/promises';
import { DelegatingStore } from '../shared/adapters/delegating-store.ts';
import { logger } from '../shared/commons/logger.ts';
import type { Execution } from '../shared/domain/model.ts';
import type { Store } from '../shared/domain/ports.ts';

/** How often journaled records move to the store; tests of crash safety set it high. */
const flushEveryMs = Number(process.env.DOGU_JOURNAL_FLUSH_MS ?? 25);
const batchSize = 100;

export class JournaledExecutionStore extends DelegatingStore {
  private readonly pending = new Map<string, Execution>();
  /** Appends and truncations run one after another through this chain. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Lines waiting for the next append: concurrent records share one write (group commit). */
  private lines: string[] = [];
  private nextAppend: Promise<void> | undefined;
  private flushing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;

  private constructor(
    inner: Store,
    private readonly file: FileHandle,
  ) {
    super(inner);
    this.timer = setInterval(() => void this.flush(), flushEveryMs);
    this.timer.unref();
  }

  /** Opens the journal, first moving into the store whatever a previous run left in it. */
  static async open(inner: Store, path: string): Promise<JournaledExecutionStore> {
    const leftover = await readJournal(path);
    if (leftover.length > 0) {
      await inner.putExecutions(leftover);
      logger.info('execution journal replayed', { records: leftover.length });
    }
    const file = await open(path, 'a', 0o600);
    await file.truncate(0);
    return new JournaledExecutionStore(inner, file);
  }

  override async putExecution(execution: Execution): Promise<void> {
    const record = structuredClone(execution);
    this.pending.set(record.id, record);
    this.lines.push(`${JSON.stringify(record)}\n`);
    this.nextAppend ??= this.enqueue(async () => {
      this.nextAppend = undefined;
      const lines = this.lines;
      this.lines = [];
      await this.file.appendFile(lines.join(''));
    });
    await this.nextAppend;
  }

  override async putExecutions(executions: Execution[]): Promise<void> {
    for (const execution of executions) await this.putExecution(execution);
  }

  override async getExecution(executionId: string): Promise<Execution | undefined> {
    const pending = this.pending.get(executionId);
    return pending ? structuredClone(pending) : super.getExecution(executionId);
  }

  /** Writes pending records to the store; the journal is emptied once nothing is pending. */
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
        await this.inner.putExecutions(batch);
      } catch (error) {
        logger.warn('execution records not yet stored; will retry', { error: error as Error });
        return;
      }
      for (const record of batch) {
        // A newer version of the same execution may have arrived meanwhile: keep that one.
        if (this.pending.get(record.id) === record) this.pending.delete(record.id);
      }
    }
    await this.enqueue(async () => {
      if (this.pending.size === 0) await this.file.truncate(0);
    });
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
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

async function readJournal(path: string): Promise<Execution[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return [];
    throw error;
  }
  const records: Execution[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      records.push(JSON.parse(line) as Execution);
    } catch {
      // The last line of a crash may be cut short: its caller never got an answer.
      logger.warn('skipped an incomplete execution journal line');
    }
  }
  return records;
}
