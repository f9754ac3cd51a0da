/**
 * Execution records in the embedded runtime go through a write-behind journal
 * (decision 7): the request waits for a file append, not for the store.
 * Records not yet stored are served from memory.
 */
import { DelegatingStore } from '../shared/adapters/delegating-store.ts';
import type { AuditEntry, AuditLog, AuditQuery } from '../shared/domain/audit.ts';
import type { Execution } from '../shared/domain/model.ts';
import type { Store } from '../shared/domain/ports.ts';
import { WriteBehindJournal } from './write-behind-journal.ts';

export class JournaledExecutionStore extends DelegatingStore {
  private constructor(
    inner: Store,
    private readonly journal: WriteBehindJournal<Execution>,
  ) {
    super(inner);
  }

  static async open(inner: Store, path: string): Promise<JournaledExecutionStore> {
    const journal = await WriteBehindJournal.open<Execution>(
      path,
      (records) => inner.putExecutions(records),
      'executions',
    );
    return new JournaledExecutionStore(inner, journal);
  }

  override putExecution(execution: Execution): Promise<void> {
    return this.journal.append(execution);
  }

  override async putExecutions(executions: Execution[]): Promise<void> {
    for (const execution of executions) await this.journal.append(execution);
  }

  override async getExecution(executionId: string): Promise<Execution | undefined> {
    const pending = this.journal.pending.get(executionId);
    return pending ? structuredClone(pending) : super.getExecution(executionId);
  }

  /** Stores what is pending first, so a run recorded only in the journal is seen too. */
  override async listOverdueExecutions(deadlineBefore: string): Promise<Execution[]> {
    await this.journal.flush();
    return super.listOverdueExecutions(deadlineBefore);
  }

  flush(): Promise<void> {
    return this.journal.flush();
  }

  stats() {
    return this.journal.stats();
  }

  close(): Promise<void> {
    return this.journal.close();
  }
}

/** Audit entries, likewise; a listing first stores what is pending, so it sees every entry. */
export class JournaledAuditLog implements AuditLog {
  private constructor(
    private readonly inner: AuditLog,
    private readonly journal: WriteBehindJournal<AuditEntry>,
  ) {}

  static async open(inner: AuditLog & { appendMany(entries: AuditEntry[]): Promise<void> }, path: string) {
    const journal = await WriteBehindJournal.open<AuditEntry>(
      path,
      (entries) => inner.appendMany(entries),
      'audit',
    );
    return new JournaledAuditLog(inner, journal);
  }

  stats() {
    return this.journal.stats();
  }

  append(entry: AuditEntry): Promise<void> {
    return this.journal.append(entry);
  }

  async list(query: AuditQuery) {
    await this.journal.flush();
    return this.inner.list(query);
  }

  close(): Promise<void> {
    return this.journal.close();
  }
}
