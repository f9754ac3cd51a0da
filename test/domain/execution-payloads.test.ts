/** Sizes in UTF-8 bytes of the whole answer (decision 0056), and where large payloads go. */
import { describe, expect, it } from 'vitest';
import {
  enveloped,
  maxInlineResponseBytes,
  maxRecordedArgumentBytes,
  recordableArguments,
  storeLargeResults,
} from '../../shared/domain/execution-payloads.ts';
import type { StatementResult } from '../../shared/domain/model.ts';
import type { PayloadStore } from '../../shared/domain/ports.ts';
import { limitResults } from '../../shared/domain/result-limits.ts';

const memoryStore = () => {
  const objects = new Map<string, Uint8Array>();
  const store: PayloadStore = {
    put: async (key, bytes) => {
      objects.set(key, bytes);
    },
    get: async (key) => objects.get(key),
  };
  return { store, objects };
};

/** 7.56 MB (decimal) of Japanese text in 2.5 M characters: under 5 MiB as a string length. */
const japanese = (): StatementResult[] => {
  const body = 'データ'.repeat(12_000); // 108,000 bytes, 36,000 characters
  const rows = Array.from({ length: 70 }, (_, n) => ({ n, body }));
  return [{ title: 'T', status: 'succeeded', columns: [], rows, rowCount: rows.length, messages: [] }];
};

describe('answer size', () => {
  it('counts UTF-8 bytes and the escaping of a JSON envelope', () => {
    expect(enveloped('"a"')).toBe(3 + 2 + 2);
    expect(enveloped('"日本"')).toBe(8 + 2 + 2);
    expect(enveloped('"\\n"')).toBe(4 + 2 + 3);
    const json = JSON.stringify(japanese());
    expect(json.length).toBeLessThan(5 * 1024 * 1024);
    expect(Buffer.byteLength(json)).toBeGreaterThan(7_500_000);
  });

  it('keeps a result over the budget in the payload store, and nothing under it', async () => {
    const { store, objects } = memoryStore();
    const results = japanese();
    const stored = await storeLargeResults(store, 'exe_1', results, { id: 'exe_1' });
    expect(stored).toEqual({ bytes: Buffer.byteLength(JSON.stringify(results)), stored: true });
    expect(Buffer.from(objects.get('executions/exe_1/results.json')!).toString()).toBe(
      JSON.stringify(results),
    );
    const small = [{ ...results[0]!, rows: results[0]!.rows.slice(0, 2), rowCount: 2 }];
    expect(await storeLargeResults(store, 'exe_2', small, { id: 'exe_2' })).toBeUndefined();
    expect(objects.has('executions/exe_2/results.json')).toBe(false);
  });

  it('without a payload store, cuts the rows to the byte budget instead', async () => {
    const results = japanese();
    expect(await storeLargeResults(undefined, 'exe_3', results, {})).toBeUndefined();
    const [cut] = limitResults(results, maxInlineResponseBytes);
    expect(cut!.truncated).toBe(true);
    expect(cut!.rows.length).toBeLessThan(70);
    expect(enveloped(JSON.stringify(cut!.rows))).toBeLessThanOrEqual(maxInlineResponseBytes);
    expect(cut!.messages.at(-1)).toContain(`cut at ${cut!.rows.length} of 70 rows`);
  });
});

describe('recorded arguments', () => {
  it('keeps small arguments, stores large ones, and notes the size where nothing can store them', async () => {
    const { store, objects } = memoryStore();
    expect(await recordableArguments(store, 'exe_4', { a: 1 })).toEqual({ arguments: { a: 1 } });
    const large = { note: 'あ'.repeat(maxRecordedArgumentBytes) };
    const bytes = Buffer.byteLength(JSON.stringify(large));
    expect(await recordableArguments(store, 'exe_5', large)).toEqual({
      arguments: {},
      payload: { bytes, stored: true },
    });
    expect(JSON.parse(Buffer.from(objects.get('executions/exe_5/arguments.json')!).toString())).toEqual(
      large,
    );
    expect(await recordableArguments(undefined, 'exe_6', large)).toEqual({
      arguments: {},
      payload: { bytes, stored: false },
    });
  });
});
