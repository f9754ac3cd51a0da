/**
 * What mysql2 returns for one statement, turned into Dogu's result: typed
 * columns and keyed rows for a result set, an affected-rows message for
 * everything else, and whether the statement changed its session.
 */
import type { FieldPacket, ResultSetHeader } from 'mysql2/promise';
import { affectedRowsMessage, keyRows, shapeColumns } from '../sql/result-shape.ts';
import type { RawStatementResult } from '../sql/sql-ports.ts';
import { describeField } from './column-types.ts';

type Rows = unknown[][];
/** mysql2's [result, fields]: one result set, an OK packet, or (CALL) several result sets and an OK packet. */
export type StatementOutput = [
  result: Rows | ResultSetHeader | (Rows | ResultSetHeader)[],
  fields: FieldPacket[] | (FieldPacket[] | undefined)[] | undefined,
];

export interface ShapedResult {
  result: RawStatementResult;
  /** The connection's session is no longer a fresh one's: it must not be reused. */
  sessionChanged: boolean;
}

/** Server status bits of the OK packet (include/mysql_com.h). */
const serverStatus = { inTransaction: 0x0001, autocommit: 0x0002 } as const;

export function shapeResult([result, fields]: StatementOutput, parseJsonValues: boolean): ShapedResult {
  if (!Array.isArray(result)) return shapeOkPacket(result);
  const resultSets = fields?.filter((entry) => Array.isArray(entry)) ?? [];
  const isMultiple = resultSets.length > 0;
  const firstFields = (isMultiple ? resultSets[0] : fields) as FieldPacket[];
  const firstRows = (isMultiple ? result[0] : result) as Rows;
  const shaped = shapeColumns(firstFields.map((field) => describeField(field, parseJsonValues)));
  const messages = [...shaped.messages];
  if (resultSets.length > 1) {
    messages.push(`The statement returned ${resultSets.length} result sets; only the first is shown.`);
  }
  return {
    result: { columns: shaped.columns, rows: keyRows(shaped, firstRows), messages },
    sessionChanged: false,
  };
}

function shapeOkPacket(header: ResultSetHeader): ShapedResult {
  const messages = [affectedRowsMessage(header.affectedRows)];
  const leftTransaction =
    (header.serverStatus & serverStatus.inTransaction) !== 0 ||
    (header.serverStatus & serverStatus.autocommit) === 0;
  const changedSession = reportsSessionChange(header);
  if (leftTransaction) {
    messages.push(
      'Each statement runs in its own transaction: the open transaction or autocommit setting this statement left ' +
        'does not carry over, and anything uncommitted was rolled back.',
    );
  } else if (changedSession) {
    messages.push(
      'The statement changed the session (for example the default database or a session variable); ' +
        'the change does not carry over to other statements.',
    );
  }
  return { result: { columns: [], rows: [], messages }, sessionChanged: leftTransaction || changedSession };
}

/**
 * Session tracking (on by default for the schema and a few variables such as
 * character_set_client and time_zone) reports USE and SET in the OK packet;
 * mysql2 parses it into `stateChanges`. GTIDs are not a change of the session.
 */
function reportsSessionChange(header: ResultSetHeader): boolean {
  const changes = (header as ResultSetHeader & { stateChanges?: SessionStateChanges }).stateChanges;
  if (!changes) return false;
  return (
    changes.schema !== null ||
    Object.keys(changes.systemVariables ?? {}).length > 0 ||
    changes.trackStateChange === '1'
  );
}

interface SessionStateChanges {
  systemVariables?: Record<string, string>;
  schema: string | null;
  trackStateChange: string | null;
}
