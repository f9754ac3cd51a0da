/**
 * PostgreSQL's CancelRequest (protocol 53.2.8): a 16-byte message on a new connection of its own,
 * naming the backend by the process id and secret key it sent at start-up. Unlike
 * `pg_cancel_backend` through the pool, it needs no free pool connection and no sign-in, so it still
 * reaches the server when every connection is busy with the very statements that must end.
 * With `ssl`, it goes inside TLS (SSLRequest first, the certificate verified as the pool's is), so the
 * backend's secret key never crosses the network in clear.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type ConnectionOptions, connect as connectTls } from 'node:tls';

const cancelRequestCode = 80877102;
const sslRequestCode = 80877103;
/** A server that does not answer within this is given up on; the caller drops the connection anyway. */
const cancelTimeoutMs = 2_000;

export interface BackendKey {
  processID: number;
  secretKey: number;
}

/** Sends the request; resolves once sent or given up (the server answers nothing; errors are dropped). */
export async function sendCancelRequest(
  /** `ssl`: the pool's own TLS options (what it trusts), or false for a plain connection. */
  target: {
    host: string;
    port: number;
    ssl: false | ConnectionOptions;
    /** Opens the connection another way (a bridge's tunnel, shared/connectors/network/). */
    open?: () => Duplex;
  },
  key: BackendKey,
): Promise<void> {
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(cancelRequestCode, 4);
  message.writeInt32BE(key.processID, 8);
  message.writeInt32BE(key.secretKey, 12);
  const socket = (target.open?.() ?? connect({ host: target.host, port: target.port })) as Socket;
  const timer = setTimeout(() => socket.destroy(), cancelTimeoutMs);
  socket.on('error', () => {});
  try {
    await once(socket, 'connect');
    let channel: Socket = socket;
    if (target.ssl) {
      const request = Buffer.alloc(8);
      request.writeInt32BE(8, 0);
      request.writeInt32BE(sslRequestCode, 4);
      socket.write(request);
      const [answer] = (await once(socket, 'data')) as [Buffer];
      // A server without TLS would be refused by the pool too: the key is not sent in clear.
      if (answer[0] !== 0x53) return;
      const secure = connectTls({ rejectUnauthorized: true, ...target.ssl, socket, servername: target.host });
      secure.on('error', () => {});
      await once(secure, 'secureConnect');
      channel = secure;
    }
    channel.end(message);
    await once(channel, 'close');
  } catch {
    // Cancelling is best effort: the run answers at its limit whatever the server does.
  } finally {
    clearTimeout(timer);
    socket.destroy();
  }
}
