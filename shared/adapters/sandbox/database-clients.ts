/**
 * The document-database clients a script sees (spec 2.5), as JavaScript source evaluated inside
 * QuickJS: `db`/`firestore` in document mode, `datastore` in key-entity mode. They only describe
 * operations; each terminal call (get, set, add, runQuery, save …) is one JSON request the host
 * checks and performs with the data source's own key (docs/javascript.md#document-databases).
 * Special values travel as `{ $timestamp }`, `{ $geoPoint }`, `{ $reference }`, `{ $bytes }`,
 * `{ $key }`, `{ $integer }`.
 */
export const databaseClients = `(mode, call) => {
  if (mode === 'document') {
    const Timestamp = Object.freeze({
      fromDate: (date) => ({ $timestamp: new Date(date).toISOString() }),
      fromMillis: (ms) => ({ $timestamp: new Date(ms).toISOString() }),
      now: () => ({ $timestamp: new Date().toISOString() }),
    });
    const GeoPoint = function (latitude, longitude) { return { $geoPoint: { latitude, longitude } }; };
    const docRef = (path) => Object.freeze({
      id: String(path).split('/').pop(),
      path: String(path),
      collection: (id) => collectionRef(path + '/' + id),
      get: async () => snapshotOf(await call({ op: 'getDocument', path })),
      set: (data, options = {}) => call({ op: 'setDocument', path, data, merge: Boolean(options && options.merge) }),
      update: (data) => call({ op: 'updateDocument', path, data }),
      delete: () => call({ op: 'deleteDocument', path }),
    });
    const snapshotOf = (doc) => Object.freeze({
      id: doc.id,
      ref: docRef(doc.path),
      exists: doc.exists,
      createTime: doc.createTime,
      updateTime: doc.updateTime,
      data: () => (doc.exists ? doc.data : undefined),
      get: (field) => (doc.exists ? doc.data[field] : undefined),
      toJSON: () => (doc.exists ? doc.data : null),
    });
    const query = (path, q) => Object.freeze({
      where: (field, op, value) => query(path, { ...q, where: [...q.where, { field, op, value }] }),
      orderBy: (field, direction = 'asc') => query(path, { ...q, orderBy: [...q.orderBy, { field, direction }] }),
      limit: (limit) => query(path, { ...q, limit }),
      get: async () => {
        const docs = (await call({ op: 'runQuery', path, ...q })).map(snapshotOf);
        return Object.freeze({ docs, size: docs.length, empty: docs.length === 0, forEach: (fn) => docs.forEach(fn) });
      },
    });
    const collectionRef = (path) => Object.freeze({
      ...query(path, { where: [], orderBy: [] }),
      id: String(path).split('/').pop(),
      path: String(path),
      doc: (id) => docRef(path + '/' + id),
      add: async (data) => docRef((await call({ op: 'addDocument', path, data })).path),
    });
    const db = Object.freeze({ collection: collectionRef, doc: docRef, Timestamp, GeoPoint });
    return { db, firestore: db };
  }
  const keyOf = (path) => Object.freeze({ $key: Array.isArray(path) ? path : [path] });
  const entityOf = (found) => (found ? { ...found.data, __key__: keyOf(found.key) } : undefined);
  const pathOf = (key) => {
    if (!key || !Array.isArray(key.$key)) throw new TypeError('a key made with datastore.key([...])');
    return key.$key;
  };
  const queryOf = (kind, q) => Object.freeze({
    filter: (property, op, value) => {
      if (value === undefined) { value = op; op = '='; }
      return queryOf(kind, { ...q, filters: [...q.filters, { property, op, value }] });
    },
    order: (property, options = {}) =>
      queryOf(kind, { ...q, order: [...q.order, { property, descending: Boolean(options && options.descending) }] }),
    limit: (limit) => queryOf(kind, { ...q, limit }),
    run: () => datastore.runQuery(queryOf(kind, q)),
    description: { kind, ...q },
  });
  const datastore = Object.freeze({
    KEY: '__key__',
    key: keyOf,
    int: (value) => ({ $integer: String(value) }),
    geoPoint: (point) => ({ $geoPoint: { latitude: point.latitude, longitude: point.longitude } }),
    get: async (keys) => {
      const many = Array.isArray(keys);
      const found = await call({ op: 'lookup', keys: (many ? keys : [keys]).map(pathOf) });
      const entities = found.map(entityOf);
      return [many ? entities : entities[0]];
    },
    createQuery: (kind) => queryOf(kind, { filters: [], order: [] }),
    runQuery: async (query) => [(await call({ op: 'runQuery', ...query.description })).map(entityOf)],
    save: (entities) =>
      call({
        op: 'save',
        entities: (Array.isArray(entities) ? entities : [entities]).map((e) => ({ key: pathOf(e.key), data: e.data })),
      }),
    delete: (keys) => call({ op: 'delete', keys: (Array.isArray(keys) ? keys : [keys]).map(pathOf) }),
  });
  return { datastore };
}`;
