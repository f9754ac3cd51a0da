/** Effects defaulted from what Dogu can see (docs/governance.md): reading SQL, HTTP methods, the rest changes. */
import { describe, expect, it } from 'vitest';
import { defaultEffect, effectOf } from '../../shared/domain/action-effect.ts';
import type { ActionInput } from '../../shared/domain/definitions/action.ts';

const sql = (...statements: string[]) =>
  ({
    id: 'a',
    name: 'A',
    kind: 'sql',
    dataSourceId: 'db',
    parameters: [],
    statements: statements.map((s) => ({ title: 't', sql: s })),
  }) as ActionInput;

describe('default effect', () => {
  it.each([
    ['SELECT * FROM orders WHERE id = {{ id }}', 'reads'],
    ['  -- a note\nWITH t AS (SELECT 1) SELECT * FROM t', 'reads'],
    ['SHOW TABLES', 'reads'],
    ['EXPLAIN SELECT 1', 'reads'],
    ['SELECT \'delete from x\' AS note, "update" FROM t FOR UPDATE', 'reads'],
    ["SELECT replace(name, 'a', 'b'), updated_at FROM t", 'reads'],
    ["UPDATE orders SET status = 'shipped' WHERE id = {{ id }}", 'changes'],
    ['WITH gone AS (DELETE FROM orders RETURNING *) SELECT count(*) FROM gone', 'changes'],
    ["WITH a AS (SELECT '--'), d AS (DELETE FROM t RETURNING 1) SELECT 1", 'changes'],
    ['EXPLAIN ANALYZE DELETE FROM orders', 'changes'],
    ['SELECT * INTO copy FROM orders', 'changes'],
    ['/* SELECT */ INSERT INTO t VALUES (1)', 'changes'],
    ['CALL ship({{ id }})', 'changes'],
  ])('%s → %s', (text, effect) => {
    expect(defaultEffect(sql(text))).toBe(effect);
  });

  it('every statement must read; HTTP GET/HEAD read; storage and sheets by operation; unknown kinds change', () => {
    expect(defaultEffect(sql('SELECT 1', 'DELETE FROM t'))).toBe('changes');
    const of = (fields: Record<string, unknown>) =>
      defaultEffect({ ...sql('SELECT 1'), ...fields } as ActionInput);
    expect(of({ kind: 'http', method: 'GET' })).toBe('reads');
    expect(of({ kind: 'http', method: 'HEAD' })).toBe('reads');
    expect(of({ kind: 'http', method: 'POST' })).toBe('changes');
    expect(of({ kind: 'storage', operation: 'list' })).toBe('reads');
    expect(of({ kind: 'storage', operation: 'signed-url', method: 'PUT' })).toBe('changes');
    expect(of({ kind: 'storage', operation: 'upload' })).toBe('changes');
    expect(of({ kind: 'sheets', operation: 'read_rows' })).toBe('reads');
    expect(of({ kind: 'sheets', operation: 'append_rows' })).toBe('changes');
    expect(of({ kind: 'javascript' })).toBe('changes');
    expect(of({ kind: 'grpc' })).toBe('changes');
    // The author's word wins.
    expect(effectOf({ ...sql('DELETE FROM t'), effect: 'reads' })).toBe('reads');
  });
});
