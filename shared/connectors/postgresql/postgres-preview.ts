/**
 * PostgreSQL's preview (decision 0185): BEGIN on one pooled connection, the statements, ROLLBACK —
 * always, also after a failure or the deadline. PostgreSQL's DDL is transactional, so CREATE and
 * ALTER are previewed too. Refused: what ends the transaction early (COMMIT, ROLLBACK, PREPARE
 * TRANSACTION…), what writes outside it (COPY to files or programs, setval, dblink, pg_background,
 * http extensions, server administration functions) — a rollback would not undo those.
 */
import type pg from 'pg';
import type {
  CompiledStatement,
  PreviewSession,
  RawStatementResult,
  SqlPreview,
  SqlRunOptions,
} from '../sql/sql-ports.ts';
import { hasPair, sqlWords } from '../sql/sql-words.ts';

/** What the preview needs of the connector: a client of its pool and one statement on it. */
export interface PostgresSessions {
  checkOut(signal: AbortSignal): Promise<pg.PoolClient>;
  query(
    client: pg.PoolClient,
    statement: CompiledStatement,
    options: SqlRunOptions,
    state: { healthy: boolean },
  ): Promise<pg.QueryResult<unknown[]>>;
  shape(result: pg.QueryResult<unknown[]>, parseJsonValues: boolean): RawStatementResult;
}

/** The ROLLBACK gets this long of its own, even when the run's deadline has passed. */
const rollbackMs = 5_000;

/** Commands whose row count is rows written. */
const writing = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

export function postgresPreview(sessions: PostgresSessions): SqlPreview {
  return {
    refusal: postgresRefusal,
    async rolledBack(work, options) {
      const client = await sessions.checkOut(options.signal);
      const ignore = () => {};
      client.on('error', ignore);
      const state = { healthy: true };
      const control = (text: string, signal: AbortSignal) =>
        sessions.query(client, { title: text, text, values: [] }, { signal }, state);
      try {
        await control('BEGIN', options.signal);
        const session: PreviewSession = {
          async run(statement, runOptions) {
            const result = await sessions.query(client, statement, runOptions, state);
            const shaped = sessions.shape(result, runOptions.parseJsonValues === true);
            const rowsAffected =
              writing.has(result.command) && typeof result.rowCount === 'number' ? result.rowCount : null;
            return { ...shaped, rowsAffected };
          },
        };
        return await work(session);
      } finally {
        if (state.healthy) {
          await control('ROLLBACK', AbortSignal.timeout(rollbackMs)).catch(() => {
            state.healthy = false;
          });
        }
        client.off('error', ignore);
        // A connection that could not roll back is closed: ending the session ends its transaction.
        client.release(state.healthy ? undefined : true);
      }
    },
  };
}

const endsTransaction = new Set([
  'BEGIN',
  'START',
  'COMMIT',
  'END',
  'ABORT',
  'ROLLBACK',
  'SAVEPOINT',
  'RELEASE',
]);
/** Functions whose effect leaves the transaction: other sessions, other servers, files, the server. */
const externalFunctions = [
  /^DBLINK/,
  /^PG_BACKGROUND/,
  /^HTTP_(GET|POST|PUT|PATCH|DELETE|HEAD|REQUEST)$/,
  /^SETVAL$/,
  /^PG_(TERMINATE|CANCEL)_BACKEND$/,
  /^PG_(RELOAD_CONF|ROTATE_LOGFILE|PROMOTE|SWITCH_WAL|CREATE_RESTORE_POINT)$/,
  /^PG_FILE_(WRITE|UNLINK|RENAME|SYNC)$/,
  /^LO_EXPORT$/,
  /^PG_LOGICAL_EMIT_MESSAGE$/,
  /^PG_(CREATE|DROP)_\w*REPLICATION_SLOT$/,
  /^PG_REPLICATION_ORIGIN/,
  /^PG_ADVISORY_(UNLOCK\w*|LOCK|LOCK_SHARED)$/,
];

export function postgresRefusal(text: string): string | undefined {
  const { words } = sqlWords(text, 'postgresql');
  const first = words[0] ?? '';
  if (endsTransaction.has(first) || (first === 'PREPARE' && words[1] === 'TRANSACTION'))
    return `${first} would end the preview's transaction, and what follows would be committed.`;
  if (words.some((w, i) => (w === 'COMMIT' && words[i - 1] !== 'ON') || w === 'ROLLBACK'))
    return 'the statement names COMMIT or ROLLBACK: a preview runs everything in one transaction it rolls back itself.';
  if (first === 'COPY')
    return 'COPY reads or writes server files or programs, which a rollback does not undo.';
  if (first === 'VACUUM' || first === 'CHECKPOINT' || first === 'LOAD' || hasPair(words, 'ALTER', 'SYSTEM'))
    return `${first} acts on the server outside any transaction.`;
  const external = words.find((w) => externalFunctions.some((pattern) => pattern.test(w)));
  if (external)
    return `${external.toLowerCase()} acts outside the transaction (another session, server, file or a session-level lock), so a rollback would not undo it.`;
  return undefined;
}
