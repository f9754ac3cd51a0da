/**
 * Warehouses answer in pages: fetch pages only while the rows still fit the execution's result
 * size limit (result-limits.ts). Rows past the limit are fetched no further; the statement is
 * marked truncated with a message, as limitResults would.
 */
import { maxKeptResultBytes } from '../../domain/result-limits.ts';

export class RowBudget {
  private remaining: number;
  /** A row did not fit: stop asking for pages. */
  cut = false;

  constructor(budget = maxKeptResultBytes) {
    this.remaining = budget;
  }

  /** Keeps the rows that fit; returns them. */
  take(rows: Record<string, unknown>[]): Record<string, unknown>[] {
    if (this.cut) return [];
    for (let i = 0; i < rows.length; i++) {
      // UTF-8 bytes, not string length (decision 0056).
      const size = Buffer.byteLength(
        JSON.stringify(rows[i], (_key, value) => (typeof value === 'bigint' ? String(value) : value)),
      );
      if (size + 1 > this.remaining) {
        this.cut = true;
        return rows.slice(0, i);
      }
      this.remaining -= size + 1;
    }
    return rows;
  }

  message(kept: number): string {
    return `The result was cut at ${kept} rows: an execution returns at most ${maxKeptResultBytes / 1024 / 1024} MB. Narrow the query (WHERE, LIMIT) to see the rest.`;
  }
}
