// Runs dynalite in a worker thread: its validation and LevelDB work stay off the
// event loop that serves requests. Plain JavaScript, so no TypeScript loader is needed here.
import { parentPort, workerData } from 'node:worker_threads';
import dynalite from 'dynalite';
import { makeItemWritesAtomic } from './dynalite-atomic-writes.mjs';

makeItemWritesAtomic();

const server = dynalite({ path: workerData.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.on('error', (error) => parentPort.postMessage({ type: 'failed', message: error.message }));
server.listen(0, '127.0.0.1', () =>
  parentPort.postMessage({ type: 'listening', port: server.address().port }),
);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  server.closeAllConnections();
  server.close((error) => parentPort.postMessage({ type: 'closed', message: error?.message }));
});
