/** Types of dynalite-atomic-writes.mjs (plain JavaScript: it runs in the dynalite worker). */
// biome-ignore lint/suspicious/noExplicitAny: dynalite's internal db module has no types
type DynaliteDb = Record<string, any>;
export function makeItemWritesAtomic(db?: DynaliteDb): DynaliteDb;
