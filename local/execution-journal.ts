/**
 * Execution records in the embedded runtime go through a write-behind journal
 * (decision 7): the request waits for a file append, not for the store.
 * Records not yet stored are served from memory.
 */
import type { AuditEntry, AuditLog, AuditQuery, ChainHead, ChainPageQuery } from '../shared/domain/audit.ts';
import { headOf, linkAfter } from '../shared/domain/audit-chain/link.ts';
import type { Execution } from '../shared/domain/model.ts';
import type { ExecutionStore } from '../shared/domain/ports.ts';
import { WriteBehindJournal } from './write-behind-journal.ts';

export class JournaledExecutionStore implements ExecutionStore {
  private constructor(
    private readonly inner: ExecutionStore,
    private readonly journal: WriteBehindJournal<Execution>,
  ) {}

  static async open(inner: ExecutionStore, path: string): Promise<JournaledExecutionStore> {
    const journal = await WriteBehindJournal.open<Execution>(
      path,
      (records) => inner.putExecutions(records),
      'executions',
    );
    return new JournaledExecutionStore(inner, journal);
  }

  putExecution(execution: Execution): Promise<void> {
    return this.journal.append(execution);
  }

  async putExecutions(executions: Execution[]): Promise<void> {
    for (const execution of executions) await this.journal.append(execution);
  }

  async getExecution(executionId: string): Promise<Execution | undefined> {
    const pending = this.journal.pending.get(executionId);
    return pending ? structuredClone(pending) : this.inner.getExecution(executionId);
  }

  /** Stores what is pending first, so a run recorded only in the journal is seen too. */
  async listOverdueExecutions(deadlineBefore: string): Promise<Execution[]> {
    await this.journal.flush();
    return this.inner.listOverdueExecutions(deadlineBefore);
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

/**
 * Audit entries, likewise; a listing first stores what is pending, so it sees every entry. Entries
 * are linked into their project's hash chain here, before the journal (decision 0180): one process
 * owns the data directory, so the head it keeps in memory is the head, and linking is synchronous,
 * so entries arriving together still share one journal write. A project's head is read from the
 * store once, on its first append.
 */
export class JournaledAuditLog implements AuditLog {
  private readonly known = new Map<string, ChainHead | undefined>();
  private readonly loading = new Map<string, Promise<void>>();

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

  async append(entry: AuditEntry): Promise<void> {
    const { projectId } = entry;
    if (!this.known.has(projectId)) {
      let loading = this.loading.get(projectId);
      if (!loading) {
        loading = this.loadHead(projectId);
        this.loading.set(projectId, loading);
      }
      await loading;
    }
    const { chain: _given, ...fields } = entry;
    const linked = linkAfter(this.known.get(projectId), fields);
    this.known.set(projectId, headOf(linked));
    return this.journal.append(linked);
  }

  private async loadHead(projectId: string): Promise<void> {
    try {
      await this.journal.flush();
      const head = await this.inner.head(projectId);
      if (!this.known.has(projectId)) this.known.set(projectId, head);
    } finally {
      this.loading.delete(projectId);
    }
  }

  async head(projectId: string): Promise<ChainHead | undefined> {
    if (this.known.has(projectId)) return this.known.get(projectId);
    await this.journal.flush();
    return this.inner.head(projectId);
  }

  async heads(): Promise<ChainHead[]> {
    await this.journal.flush();
    return this.inner.heads();
  }

  async list(query: AuditQuery) {
    await this.journal.flush();
    return this.inner.list(query);
  }

  async chainPage(query: ChainPageQuery) {
    await this.journal.flush();
    return this.inner.chainPage(query);
  }

  close(): Promise<void> {
    return this.journal.close();
  }
}
