/**
 * MySQL's and MariaDB's preview (decision 0185): START TRANSACTION on one pooled connection, the
 * statements, ROLLBACK — always. MySQL commits DDL and several other statements implicitly, and
 * MyISAM, MEMORY, Aria, CSV… tables ignore a rollback, so a preview here is narrower than on
 * PostgreSQL: only SELECT, INSERT, UPDATE, DELETE, REPLACE, WITH, VALUES, TABLE and DO are
 * previewed, none naming a table of a non-transactional engine, and the transaction is checked to
 * be still open after each statement.
 */
import type { PoolConnection, ResultSetHeader } from 'mysql2/promise';
import { DoguError } from '../../domain/errors.ts';
import type { CompiledStatement, PreviewSession, SqlPreview } from '../sql/sql-ports.ts';
import { hasPair, sqlWords } from '../sql/sql-words.ts';
import { type StatementOutput, shapeResult } from './mysql-result.ts';

/** Whether the connection a statement ran on may still be used. */
export interface StatementState {
  /** A time limit was reached and KILL QUERY sent. */
  cancelled: boolean;
  /** The connection broke. */
  fatal: boolean;
  /** The statement did not end even after KILL QUERY. */
  gaveUp?: boolean;
}

/** What the preview needs of the connector. */
export interface MysqlSessions {
  acquire(signal: AbortSignal): Promise<PoolConnection>;
  execute(
    connection: PoolConnection,
    statement: CompiledStatement,
    signal: AbortSignal,
    state: StatementState,
  ): Promise<StatementOutput>;
  /** KILL CONNECTION over a connection of its own. */
  kill(threadId: number): Promise<void>;
}

const rollbackMs = 5_000;
/** The OK packet's "in transaction" status bit (include/mysql_com.h). */
const inTransaction = 0x0001;

export function mysqlPreview(sessions: MysqlSessions): SqlPreview {
  return {
    refusal: mysqlRefusal,
    async rolledBack(work, options) {
      const connection = await sessions.acquire(options.signal);
      const state: StatementState = { cancelled: false, fatal: false };
      let rolledBack = false;
      try {
        await connection.query('START TRANSACTION');
        const session: PreviewSession = {
          async run(statement, runOptions) {
            await refuseNonTransactionalTables(connection, statement.text);
            const output = await sessions.execute(connection, statement, runOptions.signal, state);
            const shaped = shapeResult(output, runOptions.parseJsonValues === true);
            const header = Array.isArray(output[0]) ? undefined : (output[0] as ResultSetHeader);
            if (header && (header.serverStatus & inTransaction) === 0) {
              // A refusal rule missed a statement that commits implicitly: say so, loudly.
              throw new DoguError(
                'data_source_error',
                `Statement '${statement.title}' ended the preview's transaction (an implicit commit): what it changed may have been committed.`,
              );
            }
            return { ...shaped.result, rowsAffected: header ? header.affectedRows : null };
          },
        };
        return await work(session);
      } finally {
        if (!state.gaveUp && !state.fatal) {
          rolledBack = await withTimeout(connection.query('ROLLBACK'), rollbackMs).then(
            () => true,
            () => false,
          );
        }
        // Not rolled back on its own connection: end the session on the server, which then rolls it
        // back and frees its locks.
        if (!rolledBack) await sessions.kill(connection.threadId).catch(() => {});
        if (rolledBack && !state.cancelled) connection.release();
        else connection.destroy();
      }
    },
  };
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const previewable = new Set([
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
  'REPLACE',
  'WITH',
  'VALUES',
  'TABLE',
  'DO',
]);
const implicitCommit = new Set([
  'CREATE',
  'ALTER',
  'DROP',
  'RENAME',
  'TRUNCATE',
  'GRANT',
  'REVOKE',
  'ANALYZE',
  'OPTIMIZE',
  'REPAIR',
  'FLUSH',
  'INSTALL',
  'UNINSTALL',
  'LOAD',
  'CACHE',
  'RESET',
  'PURGE',
  'CHANGE',
]);
const transactionControl = new Set(['BEGIN', 'START', 'COMMIT', 'ROLLBACK', 'SAVEPOINT', 'RELEASE', 'XA']);
/** Functions whose effect a rollback does not undo: user-level locks, sequences, the server's shell. */
const externalFunctions = new Set([
  'GET_LOCK',
  'RELEASE_LOCK',
  'RELEASE_ALL_LOCKS',
  'SETVAL',
  'SYS_EXEC',
  'SYS_EVAL',
]);

export function mysqlRefusal(text: string): string | undefined {
  const { words } = sqlWords(text, 'mysql');
  const first = words[0] ?? '';
  if (implicitCommit.has(first))
    return `MySQL commits a ${first} statement implicitly (and DDL cannot be rolled back): it cannot be previewed.`;
  if (first === 'LOCK' || first === 'UNLOCK')
    return `${first} TABLES commits the open transaction implicitly: it cannot be previewed.`;
  if (first === 'SET')
    return 'SET changes the session or the server (SET GLOBAL) and a rollback does not undo it: it cannot be previewed.';
  if (transactionControl.has(first))
    return `${first} would end the preview's transaction, and what follows would be committed.`;
  if (first === 'CALL')
    return 'a stored procedure may commit or change non-transactional tables inside, where Dogu cannot see: it cannot be previewed.';
  if (!previewable.has(first))
    return `only SELECT, INSERT, UPDATE, DELETE, REPLACE, WITH, VALUES, TABLE and DO statements can be previewed on MySQL, not ${first || 'an empty statement'}.`;
  if (words.includes('COMMIT') || words.includes('ROLLBACK'))
    return 'the statement names COMMIT or ROLLBACK: a preview runs everything in one transaction it rolls back itself.';
  if (hasPair(words, 'INTO', 'OUTFILE') || hasPair(words, 'INTO', 'DUMPFILE'))
    return 'SELECT … INTO OUTFILE writes a file on the server, which a rollback does not undo.';
  const external = words.find((w) => externalFunctions.has(w));
  if (external)
    return `${external.toLowerCase()} acts outside the transaction, so a rollback would not undo it.`;
  return undefined;
}

/**
 * MyISAM, MEMORY, Aria, CSV, ARCHIVE… keep a change whatever the transaction does. Every name the
 * statement mentions is looked up among the base tables of the current database (and of databases
 * it names); one whose engine does not support transactions refuses the preview before it runs.
 */
async function refuseNonTransactionalTables(connection: PoolConnection, text: string): Promise<void> {
  const found = await nonTransactionalTables(connection, text);
  if (found.length === 0) return;
  const list = found.join(', ');
  throw new DoguError(
    'argument_invalid',
    `This action cannot be previewed: it names ${list}, whose engine does not support transactions, so a rollback would not undo its changes.`,
    { errors: [{ pointer: '#/preview', detail: `non-transactional table ${list}` }] },
  );
}

/** The tables the statement names whose engine keeps changes whatever the transaction does, as `schema.table (ENGINE)`. */
export async function nonTransactionalTables(connection: PoolConnection, text: string): Promise<string[]> {
  const { words, quotedNames } = sqlWords(text, 'mysql');
  const names = [...new Set([...words, ...quotedNames].map((n) => n.toLowerCase()))].slice(0, 500);
  if (names.length === 0) return [];
  // The pool answers rows as arrays (mysql-options.ts): [schema, table, engine].
  const [rows] = await connection.query(
    `SELECT TABLE_SCHEMA AS s, TABLE_NAME AS t, ENGINE AS e FROM information_schema.TABLES
      WHERE TABLE_TYPE = 'BASE TABLE' AND LOWER(TABLE_NAME) IN (?)
        AND (TABLE_SCHEMA = DATABASE() OR LOWER(TABLE_SCHEMA) IN (?))
        AND ENGINE NOT IN (SELECT ENGINE FROM information_schema.ENGINES WHERE TRANSACTIONS = 'YES')`,
    [names, names],
  );
  return (rows as [string, string, string][]).map(
    ([schema, table, engine]) => `${schema}.${table} (${engine})`,
  );
}
