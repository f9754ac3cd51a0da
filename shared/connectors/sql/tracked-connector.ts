import type {
  CompiledStatement,
  GroupOutcome,
  GroupRunOptions,
  RawStatementResult,
  SqlConnector,
  SqlPreview,
  SqlRunOptions,
} from './sql-ports.ts';

/**
 * Counts the runs in flight on a connector, so a pool being replaced is
 * closed only once they are done: pg and mysql2 both fail a run that is still
 * waiting for a connection when its pool ends.
 */
export class TrackedConnector implements SqlConnector {
  private inFlight = 0;
  private waiters: (() => void)[] = [];

  readonly preview?: SqlPreview;
  readonly runGroup?: (statements: CompiledStatement[], options: GroupRunOptions) => Promise<GroupOutcome>;

  constructor(private readonly inner: SqlConnector) {
    const runGroup = inner.runGroup?.bind(inner);
    // A group holds its connection for the whole transaction: it counts as one run in flight.
    if (runGroup) this.runGroup = (statements, options) => this.tracked(() => runGroup(statements, options));
    const preview = inner.preview;
    // A preview holds its connection for the whole transaction: it counts as one run in flight.
    if (preview) {
      this.preview = {
        refusal: (text) => preview.refusal(text),
        rolledBack: (work, options) => this.tracked(() => preview.rolledBack(work, options)),
      };
    }
  }

  run(statement: CompiledStatement, options: SqlRunOptions): Promise<RawStatementResult> {
    return this.tracked(() => this.inner.run(statement, options));
  }

  private async tracked<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await work();
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
