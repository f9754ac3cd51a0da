// Copies the SQLite write-ahead log into the database file from a thread of its own (decision 0250):
// a checkpoint ends with fsyncs, which would otherwise stall the thread that serves requests in the
// middle of a commit. PASSIVE never blocks a writer; it copies what no reader still needs. Plain
// JavaScript, so no TypeScript loader is needed here.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

// Node 22 warns once that node:sqlite is experimental; the main thread holds the same warning back.
const emitWarning = process.emitWarning;
process.emitWarning = (warning, ...rest) => {
  const message = typeof warning === 'string' ? warning : warning.message;
  if (message.startsWith('SQLite is an experimental feature')) return;
  emitWarning.call(process, warning, ...rest);
};
const { DatabaseSync } = createRequire(import.meta.url)('node:sqlite');
process.emitWarning = emitWarning;

const db = new DatabaseSync(workerData.path);
db.exec('PRAGMA busy_timeout = 1000');
db.exec('PRAGMA synchronous = NORMAL');
const timer = setInterval(() => {
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ type: 'failed', message: error.message });
  }
}, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort.postMessage({ type: 'closed' });
});
parentPort.postMessage({ type: 'ready' });
