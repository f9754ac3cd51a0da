declare module 'dynalite' {
  import type { Server } from 'node:http';

  interface DynaliteOptions {
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    maxItemSizeKb?: number;
  }
  export default function dynalite(options?: DynaliteOptions): Server;
}

/** The part of Node 22's `node:sqlite` the embedded store uses (@types/node here is Node 20's). */
declare module 'node:sqlite' {
  type SqlValue = null | number | bigint | string | Uint8Array;
  interface RunResult {
    changes: number | bigint;
    lastInsertRowid: number | bigint;
  }
  export class StatementSync {
    run(...parameters: SqlValue[]): RunResult;
    get(...parameters: SqlValue[]): Record<string, SqlValue> | undefined;
    all(...parameters: SqlValue[]): Record<string, SqlValue>[];
  }
  export class DatabaseSync {
    constructor(path: string, options?: { open?: boolean });
    exec(sql: string): void;
    prepare(sql: string): StatementSync;
    close(): void;
    readonly isTransaction: boolean;
  }
}
