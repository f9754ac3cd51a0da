// dynalite 4.0.0 writes an item's index deletes, its index puts and the item itself as separate
// LevelDB writes. A process killed between them leaves an item its index does not list (a job
// nobody finds at start-up) or an index entry with no item (decision 0120). This makes each
// item write one LevelDB batch, which LevelDB applies whole or not at all. Plain JavaScript: it
// runs in the dynalite worker, which has no TypeScript loader.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Patches dynalite's shared `db` module (before any store is created): `updateIndexes` no longer
 * writes but keeps the index writes for the item, and the item's own put or delete writes them in
 * the same batch. Every caller of `updateIndexes` (PutItem, UpdateItem, DeleteItem, and
 * BatchWriteItem through them) holds the item's lock and writes the item right after, so no other
 * write of that item can come in between.
 */
export function makeItemWritesAtomic(db = require('dynalite/db')) {
  for (const name of ['create', 'updateIndexes', 'getIndexActions', 'createKey']) {
    // A dynalite upgrade that moves these must fail loudly, not silently lose atomicity.
    if (typeof db[name] !== 'function') throw new Error(`dynalite has no db.${name}: recheck decision 0120.`);
  }
  if (db.atomicItemWrites) return db;
  const { create, getIndexActions, createKey } = db;
  /** Index writes waiting for their item's write, by store, then table and item key. */
  const waiting = new WeakMap();

  db.updateIndexes = (store, table, existingItem, item, cb) => {
    if (!existingItem && !item) return cb();
    const deletes = [];
    const puts = [];
    for (const indexType of ['Local', 'Global']) {
      const actions = getIndexActions(table[`${indexType}SecondaryIndexes`] || [], existingItem, item, table);
      for (const { index, key } of actions.deletes)
        deletes.push(
          ...prefixed(store, store.getIndexDb(indexType, table.TableName, index), [{ type: 'del', key }]),
        );
      for (const { index, key, item: value } of actions.puts)
        puts.push(
          ...prefixed(store, store.getIndexDb(indexType, table.TableName, index), [
            { type: 'put', key, value },
          ]),
        );
    }
    waiting
      .get(store)
      .set(`${table.TableName}\u0000${createKey(item ?? existingItem, table)}`, [...deletes, ...puts]);
    cb();
  };

  db.create = (options) => {
    const store = create(options);
    waiting.set(store, new Map());
    const getItemDb = store.getItemDb;
    const atomic = new WeakMap();
    store.getItemDb = (tableName) => {
      const itemDb = getItemDb(tableName);
      if (!atomic.has(itemDb)) atomic.set(itemDb, atomicItemDb(store, tableName, itemDb));
      return atomic.get(itemDb);
    };
    return store;
  };

  /** The item database of one table, whose put and del carry the item's waiting index writes. */
  function atomicItemDb(store, tableName, itemDb) {
    const write = (op, cb) => {
      const id = `${tableName}\u0000${op.key}`;
      const indexWrites = waiting.get(store).get(id);
      waiting.get(store).delete(id);
      store.db.batch([...(indexWrites ?? []), ...prefixed(store, itemDb, [op])], cb);
    };
    // Everything else (the item lock, reads, streams) is the original item database's.
    return Object.assign(Object.create(itemDb), {
      put: (key, value, cb) => write({ type: 'put', key, value }, cb),
      del: (key, cb) => write({ type: 'del', key }, cb),
    });
  }

  db.atomicItemWrites = true;
  return db;
}

/**
 * The operations as `subDb` would hand them to the main LevelDB, with its key prefix: taken from its
 * own `batch`, which calls the main database's `batch` synchronously, so no prefix is copied here.
 */
function prefixed(store, subDb, ops) {
  const batch = store.db.batch;
  let result;
  store.db.batch = (prefixedOps) => {
    result = prefixedOps;
  };
  try {
    subDb.batch(ops, () => {});
  } finally {
    store.db.batch = batch;
  }
  if (!result) throw new Error('dynalite changed how its sub-databases write: recheck decision 0120.');
  return result;
}
