/**
 * A group of batch rows on MySQL or MariaDB (decision 0255): one pooled connection, one transaction,
 * every row inside its own savepoint. mysql2 sends a connection's commands one after another (no
 * pipelining), so the gain here is one connection and one commit for the group. A failing row is
 * rolled back to its savepoint and reported with its own error; an error that ended the whole
 * transaction (a deadlock) leaves no savepoint to return to, and the group is rolled back.
 */
import type { ResultSetHeader } from 'mysql2/promise';
import { DoguError } from '../../domain/errors.ts';
import type { CompiledStatement, GroupOutcome, GroupRowOutcome, GroupRunOptions } from '../sql/sql-ports.ts';
import {
  type MysqlSessions,
  nonTransactionalTables,
  type StatementState,
  withTimeout,
} from './mysql-preview.ts';
import { shapeResult } from './mysql-result.ts';

const rollbackMs = 5_000;
/** The OK packet's "in transaction" status bit (include/mysql_com.h). */
const inTransactionBit = 0x0001;

export function mysqlRowGroup(sessions: MysqlSessions & { failed(error: unknown): DoguError }) {
  return async (statements: CompiledStatement[], options: GroupRunOptions): Promise<GroupOutcome> => {
    const { signal } = options;
    const connection = await sessions.acquire(signal);
    const state: StatementState = { cancelled: false, fatal: false };
    let open = false;
    let committing = false;
    const control = (text: string) => connection.query(text);
    const rolledBack = (reason: DoguError): GroupOutcome => ({ kind: 'rolled_back', reason });
    try {
      // MyISAM, MEMORY, Aria… keep a row's change whatever the savepoint or the transaction does.
      for (const text of new Set(statements.map((s) => s.text))) {
        const kept = await nonTransactionalTables(connection, text);
        if (kept.length > 0) return { kind: 'not_grouped', reason: `non-transactional ${kept.join(', ')}` };
      }
      await options.beforeRun();
      await control('START TRANSACTION');
      open = true;
      const rows: GroupRowOutcome[] = [];
      for (const statement of statements) {
        await control('SAVEPOINT dogu_row');
        try {
          const output = await sessions.execute(connection, statement, signal, state);
          const header = Array.isArray(output[0]) ? undefined : (output[0] as ResultSetHeader);
          if (header && (header.serverStatus & inTransactionBit) === 0) {
            open = false;
            return {
              kind: 'unknown',
              reason: new DoguError('data_source_error', 'A row ended the transaction (an implicit commit).'),
            };
          }
          rows.push({ ok: true, result: shapeResult(output, options.parseJsonValues === true).result });
          await control('RELEASE SAVEPOINT dogu_row');
        } catch (error) {
          const failure = sessions.failed(error);
          if (state.cancelled || state.fatal || state.gaveUp || signal.aborted) {
            if (state.fatal) open = false;
            return rolledBack(failure);
          }
          // The transaction may be gone with the statement (a deadlock): then so is the savepoint.
          const undone = await control('ROLLBACK TO SAVEPOINT dogu_row').then(
            () => true,
            () => false,
          );
          if (!undone) return rolledBack(failure);
          rows.push({ ok: false, error: failure });
        }
      }
      committing = true;
      await control('COMMIT');
      open = false;
      return { kind: 'committed', rows };
    } catch (error) {
      if (!committing) {
        // A control statement failed: the transaction (if any) is rolled back below.
        return rolledBack(sessions.failed(error));
      }
      open = false;
      state.fatal = true;
      return { kind: 'unknown', reason: sessions.failed(error) };
    } finally {
      let rolledBackHere = !open;
      if (open && !state.gaveUp && !state.fatal) {
        rolledBackHere = await withTimeout(control('ROLLBACK'), rollbackMs).then(
          () => true,
          () => false,
        );
      }
      // Not rolled back on its own connection: end the session on the server, which rolls it back.
      if (!rolledBackHere) await sessions.kill(connection.threadId).catch(() => {});
      if (rolledBackHere && !state.cancelled && !state.fatal) connection.release();
      else connection.destroy();
    }
  };
}
