/**
 * PostgreSQL's CancelRequest as the connector sends it at the time limit (decision 0076): the
 * backend's key in 16 bytes, inside TLS when the data source uses it, never in clear to a server
 * that refuses TLS. A fake server stands in here: the real one is checked in time-limits.test.ts.
 */
import { once } from 'node:events';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { sendCancelRequest } from '../../shared/connectors/postgresql/cancel-request.ts';
import { selfSignedCertificate } from '../support/http-server.ts';

const key = { processID: 4242, secretKey: -123456 };
let close = () => {};
afterEach(() => close());

/** Answers an SSLRequest with `sslAnswer`, then collects what arrives (decrypted when TLS is on). */
async function fakePostgres(sslAnswer: 'S' | 'N', tls?: { key: string; cert: string }) {
  const received: Buffer[] = [];
  let started: Promise<number> = Promise.resolve(0);
  const done = new Promise<void>((resolve) => {
    const server = createServer((socket: Socket) => {
      socket.once('data', (first: Buffer) => {
        if (first.readInt32BE(4) !== 80877103) {
          received.push(first);
          return resolve();
        }
        socket.write(sslAnswer);
        if (sslAnswer === 'N' || !tls) return socket.once('close', () => resolve());
        const secure = new TLSSocket(socket, { isServer: true, ...tls });
        secure.on('data', (chunk: Buffer) => received.push(chunk));
        secure.on('close', () => resolve());
        secure.on('error', () => resolve());
      });
    });
    server.listen(0, '127.0.0.1');
    close = () => server.close();
    started = once(server, 'listening').then(() => (server.address() as AddressInfo).port);
  });
  return { port: await started, received, done };
}

const cancelMessage = () => {
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(80877102, 4);
  message.writeInt32BE(key.processID, 8);
  message.writeInt32BE(key.secretKey, 12);
  return message;
};

describe('sendCancelRequest', () => {
  it('sends the backend key in 16 bytes on a plain connection', async () => {
    const server = await fakePostgres('N');
    await sendCancelRequest({ host: '127.0.0.1', port: server.port, ssl: false }, key);
    await server.done;
    expect(Buffer.concat(server.received)).toEqual(cancelMessage());
  });

  it('sends it inside TLS, trusting what the pool trusts', async () => {
    const certificate = await selfSignedCertificate();
    const server = await fakePostgres('S', certificate);
    await sendCancelRequest({ host: '127.0.0.1', port: server.port, ssl: { ca: certificate.cert } }, key);
    await server.done;
    expect(Buffer.concat(server.received)).toEqual(cancelMessage());
  });

  it('never sends the key in clear to a server that refuses TLS', async () => {
    const server = await fakePostgres('N');
    await sendCancelRequest({ host: '127.0.0.1', port: server.port, ssl: {} }, key);
    await server.done;
    expect(server.received).toEqual([]);
  });
});
