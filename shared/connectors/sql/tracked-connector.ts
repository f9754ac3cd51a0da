import type { CompiledStatement, RawStatementResult, SqlConnector, SqlRunOptions } from './sql-ports.ts';

/**
 * Counts the runs in flight on a connector, so a pool being replaced is
 * closed only once they are done: pg and mysql2 both fail a run that is still
 * waiting for a connection when its pool ends.
 */
export class TrackedConnector implements SqlConnector {
  private inFlight = 0;
  private waiters: (() => void)[] = [];

  constructor(private readonly inner: SqlConnector) {}

  async run(statement: CompiledStatement, options: SqlRunOptions): Promise<RawStatementResult> {
    this.inFlight++;
    try {
      return await this.inner.run(statement, options);
    } finally {
      if (--this.inFlight === 0) for (const wake of this.waiters.splice(0)) wake();
    }
  }

  /** Resolves once no run is in flight. */
  whenIdle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
