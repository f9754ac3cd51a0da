/**
 * PostgreSQL's CancelRequest (protocol 53.2.8): a 16-byte message on a new connection of its own,
 * naming the backend by the process id and secret key it sent at start-up. Unlike
 * `pg_cancel_backend` through the pool, it needs no free pool connection and no sign-in, so it still
 * reaches the server when every connection is busy with the very statements that must end.
 */
import { connect } from 'node:net';

const cancelRequestCode = 80877102;
/** A server that does not answer within this is given up on; the caller drops the connection anyway. */
const cancelConnectTimeoutMs = 2_000;

export interface BackendKey {
  processID: number;
  secretKey: number;
}

/** Sends the request; resolves when the server closed the connection (it answers nothing). */
export function sendCancelRequest(host: string, port: number, key: BackendKey): Promise<void> {
  return new Promise((resolve) => {
    const message = Buffer.alloc(16);
    message.writeInt32BE(16, 0);
    message.writeInt32BE(cancelRequestCode, 4);
    message.writeInt32BE(key.processID, 8);
    message.writeInt32BE(key.secretKey, 12);
    const socket = connect({ host, port, timeout: cancelConnectTimeoutMs }, () => socket.end(message));
    const done = () => {
      socket.destroy();
      resolve();
    };
    socket.on('close', done).on('error', done).on('timeout', done);
  });
}
