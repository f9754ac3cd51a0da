/**
 * Execution records in the embedded runtime's SQLite file (decision 0250): one row per execution,
 * the record as JSON, and the columns its queries need. A running record with a deadline is in the
 * partial index `executions_live`, which the sweeper reads for overdue runs; the record and its
 * index entry are one transaction, so no kill can leave one without the other.
 */
import type { Execution } from '../../shared/domain/model.ts';
import type { ExecutionStore } from '../../shared/domain/ports.ts';
import type { GroupCommits, LocalDatabase } from './local-database.ts';

export class SqliteExecutions implements ExecutionStore {
  private readonly upsert;
  private readonly byId;
  private readonly overdue;
  private readonly commits: GroupCommits;

  constructor(local: Pick<LocalDatabase, 'db' | 'commits'>) {
    const { db } = local;
    this.commits = local.commits;
    this.upsert = db.prepare(
      `INSERT INTO executions (id, status, deadline_at, record) VALUES (?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, deadline_at = excluded.deadline_at,
         record = excluded.record`,
    );
    this.byId = db.prepare('SELECT record FROM executions WHERE id = ?');
    this.overdue = db.prepare(
      `SELECT record FROM executions
       WHERE status = 'running' AND deadline_at IS NOT NULL AND deadline_at < ?
       ORDER BY deadline_at`,
    );
  }

  /** Stored when this resolves: the caller is answered after the commit. */
  putExecution(execution: Execution): Promise<void> {
    // Taken now: the caller may change the object while the commit waits for its turn.
    const row = rowOf(execution);
    return this.commits.write(() => this.upsert.run(...row));
  }

  /** All or none of them. */
  putExecutions(executions: Execution[]): Promise<void> {
    const rows = executions.map(rowOf);
    return this.commits.write(() => {
      for (const row of rows) this.upsert.run(...row);
    });
  }

  async getExecution(executionId: string): Promise<Execution | undefined> {
    const row = this.byId.get(executionId);
    return row ? (JSON.parse(row.record as string) as Execution) : undefined;
  }

  /** Running executions whose deadline is before `deadlineBefore` (ISO), oldest deadline first. */
  async listOverdueExecutions(deadlineBefore: string): Promise<Execution[]> {
    return this.overdue.all(deadlineBefore).map((row) => JSON.parse(row.record as string) as Execution);
  }
}

const rowOf = (execution: Execution): [string, string, string | null, string] => [
  execution.id,
  execution.status,
  execution.deadlineAt ?? null,
  JSON.stringify(execution),
];
