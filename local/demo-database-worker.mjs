/**
 * The embedded demo database in a thread of its own: PGlite (single-threaded WebAssembly) runs a
 * query to its end and holds its thread meanwhile, so here it holds this thread, not the runtime's.
 * The runtime ends a query that outlives its run by terminating this thread (demo-database.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

try {
  const db = await PGlite.create(workerData.directory, workerData.options);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 8 });
  await server.start();
  const [, port] = server.getServerConn().split(':');
  parentPort.on('message', async (message) => {
    if (message?.type !== 'close') return;
    await server.stop().catch(() => {});
    await db.close().catch(() => {});
    parentPort.postMessage({ type: 'closed' });
  });
  parentPort.postMessage({ type: 'ready', port: Number(port) });
} catch (error) {
  parentPort.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
}
