/**
 * A group of batch rows on PostgreSQL (decision 0255): one pooled connection, one transaction, every
 * row inside its own savepoint, and the whole group pipelined — pg writes the queued queries without
 * waiting for each answer. A row that fails makes the statements written after it fail as "in an
 * aborted transaction"; the group then rolls back to that row's savepoint, reports the row with its
 * own error and writes the rest again. COMMIT is sent only after every row's outcome is known.
 */
import type pg from 'pg';
import { DoguError } from '../../domain/errors.ts';
import type {
  CompiledStatement,
  GroupOutcome,
  GroupRowOutcome,
  GroupRunOptions,
  RawStatementResult,
} from '../sql/sql-ports.ts';

/** What the group needs of the connector. */
export interface PostgresGroupSessions {
  checkOut(signal: AbortSignal): Promise<pg.PoolClient>;
  /** Sends a cancel request for the client's running statement (over its own connection). */
  cancel(client: pg.PoolClient): void;
  /** A driver error as the connector reports it for a single statement. */
  failed(error: unknown): DoguError;
  shape(result: pg.QueryResult<unknown[]>, parseJsonValues: boolean): RawStatementResult;
  timedOut(): DoguError;
}

/** After cancelling, how long to wait for the server to answer before the connection is dropped. */
const cancelGraceMs = 2_000;
/** The ROLLBACK gets this long of its own, even when the run's deadline has passed. */
const rollbackMs = 5_000;
const inFailedTransaction = '25P02';

type Settled = { ok: true; value: pg.QueryResult<unknown[]> } | { ok: false; error: unknown };
const errorOf = (settled: Settled): unknown => (settled.ok ? undefined : settled.error);
/** pg 8.20+ writes queued queries without waiting for each answer while `pipeline` is on (typed read-only). */
const pipelined = (client: pg.PoolClient, on: boolean) => {
  (client as unknown as { pipeline: boolean }).pipeline = on;
};
const isServerError = (error: unknown) => /^[0-9A-Z]{5}$/.test(String((error as { code?: unknown }).code));

export function postgresRowGroup(sessions: PostgresGroupSessions) {
  return async (statements: CompiledStatement[], options: GroupRunOptions): Promise<GroupOutcome> => {
    const { signal } = options;
    if (signal.aborted) return { kind: 'rolled_back', reason: sessions.timedOut() };
    const client = await sessions.checkOut(signal);
    const ignore = () => {};
    client.on('error', ignore);
    let healthy = true;
    let cancelled = false;
    let inTransaction = false;
    let committing = false;
    let graceTimer: NodeJS.Timeout | undefined;
    let giveUp = () => {};
    const gaveUp = new Promise<'gave_up'>((resolve) => {
      giveUp = () => resolve('gave_up');
    });
    const onAbort = () => {
      cancelled = true;
      sessions.cancel(client);
      graceTimer = setTimeout(giveUp, cancelGraceMs);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const send = (text: string, values: unknown[] = []): Promise<Settled> =>
      client.query({ text, values, rowMode: 'array', queryMode: 'extended' } as pg.QueryArrayConfig).then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
    /** Waits for the answers, or gives the connection up when a cancelled statement never answers. */
    const answers = async (pending: Promise<Settled>[]): Promise<Settled[]> => {
      const settled = await Promise.race([Promise.all(pending), gaveUp]);
      if (settled === 'gave_up') {
        healthy = false;
        throw sessions.timedOut();
      }
      return settled;
    };
    const rolledBack = (reason: DoguError): GroupOutcome => ({ kind: 'rolled_back', reason });
    try {
      await options.beforeRun();
      const rows: GroupRowOutcome[] = [];
      pipelined(client, true);
      inTransaction = true;
      const begun = send('BEGIN');
      let next = 0;
      while (next < statements.length) {
        const round = statements.slice(next);
        const written = round.flatMap((statement) => [
          send('SAVEPOINT dogu_row'),
          send(statement.text, statement.values),
          send('RELEASE SAVEPOINT dogu_row'),
        ]);
        const settled = await answers(next === 0 ? [begun, ...written] : written);
        const replies = next === 0 ? settled.slice(1) : settled;
        if (next === 0 && !settled[0]!.ok) return rolledBack(sessions.failed(settled[0]!.error));
        let failedAt = -1;
        for (let i = 0; i < round.length; i++) {
          const [mark, statement, release] = [replies[3 * i]!, replies[3 * i + 1]!, replies[3 * i + 2]!];
          if (mark.ok && statement.ok && release.ok) {
            rows.push({
              ok: true,
              result: sessions.shape(statement.value, options.parseJsonValues === true),
            });
            continue;
          }
          const error = errorOf(mark) ?? errorOf(statement) ?? errorOf(release);
          // Our own deadline, a lost connection, or a failure that is not this row's: the group as a whole ends.
          if (cancelled || signal.aborted) return rolledBack(sessions.timedOut());
          if (!isServerError(error)) {
            healthy = false;
            return rolledBack(sessions.failed(error));
          }
          if (!mark.ok || (error as { code?: string }).code === inFailedTransaction) {
            return rolledBack(sessions.failed(error));
          }
          rows.push({ ok: false, error: sessions.failed(error) });
          failedAt = i;
          break;
        }
        if (failedAt < 0) break;
        // Undo only the failed row; the rows before it stay in the transaction.
        const [undo, drop] = await answers([
          send('ROLLBACK TO SAVEPOINT dogu_row'),
          send('RELEASE SAVEPOINT dogu_row'),
        ]);
        if (!undo!.ok) return rolledBack(sessions.failed(undo!.error));
        if (!drop!.ok) return rolledBack(sessions.failed(drop!.error));
        next += failedAt + 1;
      }
      if (cancelled || signal.aborted) return rolledBack(sessions.timedOut());
      committing = true;
      const [commit] = await answers([send('COMMIT')]);
      inTransaction = false;
      if (!commit!.ok) {
        // The server answered: it rolled the transaction back (a deferred constraint, a serialization
        // failure). Without an answer nobody can tell whether it committed.
        if (isServerError(commit!.error)) return rolledBack(sessions.failed(commit!.error));
        healthy = false;
        return { kind: 'unknown', reason: sessions.failed(commit!.error) };
      }
      if (commit!.value.command === 'ROLLBACK') {
        return rolledBack(new DoguError('data_source_error', 'PostgreSQL rolled the group back at COMMIT.'));
      }
      return { kind: 'committed', rows };
    } catch (error) {
      // A cancelled statement never answered: the connection is dropped, which ends the transaction
      // on the server — unless the statement was the COMMIT.
      if (inTransaction && !healthy && error instanceof DoguError && error.code === 'execution_timeout') {
        inTransaction = false;
        return committing ? { kind: 'unknown', reason: error } : rolledBack(error);
      }
      throw error;
    } finally {
      signal.removeEventListener('abort', onAbort);
      clearTimeout(graceTimer);
      if (healthy && inTransaction) {
        const [rollback] = await Promise.race([
          Promise.all([send('ROLLBACK')]),
          new Promise<[Settled]>((resolve) =>
            setTimeout(() => resolve([{ ok: false, error: new Error('timed out') }]), rollbackMs).unref(),
          ),
        ]);
        if (!rollback!.ok) healthy = false;
      }
      if (healthy) pipelined(client, false);
      client.off('error', ignore);
      // A cancel request may still be on its way: that connection is not reused. Ending a session
      // whose transaction is open rolls it back on the server.
      client.release(healthy && !cancelled ? undefined : true);
    }
  };
}
