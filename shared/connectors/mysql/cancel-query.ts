import mysql, { type ConnectionOptions } from 'mysql2/promise';

/**
 * Ends the statement running on `threadId` on the server (KILL QUERY), over a
 * connection of its own: the statement's connection is busy, and the pool may
 * be exhausted by the very statements that need ending. The connection it
 * ran on stays open (KILL CONNECTION would end that too); the connector does
 * not reuse it.
 */
export function cancelQuery(options: ConnectionOptions, threadId: number): Promise<void> {
  return kill(options, threadId, 'QUERY');
}

/**
 * Ends the session on `threadId` (KILL CONNECTION): a preview whose transaction could not be rolled
 * back on its own connection ends it this way, so the server rolls back and frees its locks.
 */
export function killConnection(options: ConnectionOptions, threadId: number): Promise<void> {
  return kill(options, threadId, 'CONNECTION');
}

async function kill(
  options: ConnectionOptions,
  threadId: number,
  what: 'QUERY' | 'CONNECTION',
): Promise<void> {
  // An id from the server's handshake, but KILL cannot take a placeholder: accept nothing but an integer.
  if (!Number.isSafeInteger(threadId) || threadId <= 0) throw new Error(`Invalid thread id ${threadId}.`);
  const killer = await mysql.createConnection(options);
  killer.on('error', () => {}); // a late network error must not crash the process
  try {
    await killer.query(`KILL ${what} ${threadId}`);
  } finally {
    await killer.end().catch(() => killer.destroy());
  }
}
