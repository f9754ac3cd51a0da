/**
 * Creates the embedded demo database's data directory (initdb) in a worker thread. PGlite's initdb
 * module keeps its WebAssembly memory (~400 MB) for the life of the isolate that ran it; run here,
 * it goes when the thread ends, and the runtime opens the finished directory itself (decision 0062).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

try {
  const db = await PGlite.create(workerData.directory, workerData.options);
  await db.close();
  parentPort.postMessage({ ok: true });
} catch (error) {
  parentPort.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
}
