import { describe, expect, it } from 'vitest';
import {
  confirmMaxLength,
  exportMaxColumns,
  exportMaxRows,
  parseFromFrame,
  toastMaxLength,
} from './protocol.ts';

describe('parseFromFrame', () => {
  it('accepts the frame messages in their shapes only', () => {
    expect(parseFromFrame({ dogu: 1, type: 'ready' })).toEqual({ dogu: 1, type: 'ready' });
    expect(
      parseFromFrame({
        dogu: 1,
        type: 'runAction',
        channel: 'c',
        callId: 3,
        actionId: 'a',
        arguments: { x: 1 },
      }),
    ).toEqual({ dogu: 1, type: 'runAction', channel: 'c', callId: 3, actionId: 'a', arguments: { x: 1 } });
    expect(
      parseFromFrame({ dogu: 1, type: 'navigate', channel: 'c', to: { url: 'https://x', view: 7 } }),
    ).toEqual({
      dogu: 1,
      type: 'navigate',
      channel: 'c',
      to: { url: 'https://x' },
      arguments: {},
    });
    expect(parseFromFrame({ dogu: 1, type: 'error', channel: 'c', message: 'x'.repeat(5000) })).toMatchObject(
      {
        message: 'x'.repeat(2000),
      },
    );
  });

  it('accepts toasts as plain text of a known kind, trimmed', () => {
    expect(parseFromFrame({ dogu: 1, type: 'toast', channel: 'c', message: '  Saved  ' })).toEqual({
      dogu: 1,
      type: 'toast',
      channel: 'c',
      message: 'Saved',
      kind: 'success',
    });
    expect(
      parseFromFrame({ dogu: 1, type: 'toast', channel: 'c', message: 'Oops', kind: 'error' }),
    ).toMatchObject({
      kind: 'error',
    });
    for (const bad of [
      { message: '' },
      { message: '   ' },
      { message: 'x'.repeat(toastMaxLength + 1) },
      { message: 42 },
      { message: 'hi', kind: 'html' },
      {},
    ]) {
      expect(
        parseFromFrame({ dogu: 1, type: 'toast', channel: 'c', ...bad }),
        JSON.stringify(bad),
      ).toBeUndefined();
    }
  });

  it("carries a run's question only as non-empty text of bounded length", () => {
    const run = { dogu: 1, type: 'runAction', channel: 'c', callId: 1, actionId: 'ship' };
    expect(parseFromFrame({ ...run, confirm: ' Ship order 7? ' })).toEqual({
      ...run,
      arguments: {},
      confirm: 'Ship order 7?',
    });
    expect(parseFromFrame(run)).not.toHaveProperty('confirm');
    expect(parseFromFrame({ ...run, confirm: '' })).toBeUndefined();
    expect(parseFromFrame({ ...run, confirm: true })).toBeUndefined();
    expect(parseFromFrame({ ...run, confirm: 'x'.repeat(confirmMaxLength + 1) })).toBeUndefined();
  });

  it('asks only for known libraries', () => {
    expect(parseFromFrame({ dogu: 1, type: 'library', channel: 'c', name: 'chart' })).toEqual({
      dogu: 1,
      type: 'library',
      channel: 'c',
      name: 'chart',
    });
    for (const name of ['echarts', '../chart', undefined, 1]) {
      expect(parseFromFrame({ dogu: 1, type: 'library', channel: 'c', name })).toBeUndefined();
    }
  });

  it('exports CSV with a plain file name, columns and bounded rows', () => {
    const good = {
      dogu: 1,
      type: 'exportCsv',
      channel: 'c',
      fileName: 'orders 2026-11',
      columns: [{ field: 'id' }, { field: 'total', label: 'Total' }],
      rows: [{ id: 1, total: 10 }],
    };
    expect(parseFromFrame(good)).toEqual(good);
    expect(parseFromFrame({ ...good, fileName: '注文' })).toMatchObject({ fileName: '注文' });
    for (const bad of [
      { fileName: '../../etc/passwd' },
      { fileName: 'a/b' },
      { fileName: '' },
      { fileName: 'x'.repeat(101) },
      { columns: [] },
      { columns: [{ label: 'no field' }] },
      { columns: Array.from({ length: exportMaxColumns + 1 }, (_, i) => ({ field: `f${i}` })) },
      { rows: [[1, 2]] },
      { rows: Array.from({ length: exportMaxRows + 1 }, () => ({ id: 1 })) },
      { rows: 'all' },
    ]) {
      expect(parseFromFrame({ ...good, ...bad }), JSON.stringify(bad).slice(0, 80)).toBeUndefined();
    }
  });

  it('ignores anything else', () => {
    for (const data of [
      null,
      'ready',
      { type: 'ready' },
      { dogu: 2, type: 'ready' },
      { dogu: 1, type: 'heartbeat' },
      { dogu: 1, type: 'runAction', channel: 'c', callId: '1', actionId: 'a' },
      { dogu: 1, type: 'runAction', channel: 'c', callId: 1, actionId: 'a', arguments: [1] },
      { dogu: 1, type: 'navigate', channel: 'c', to: { somewhere: 'x' } },
      { dogu: 1, type: 'resize', channel: 'c', height: Number.POSITIVE_INFINITY },
      { dogu: 1, type: 'eval', channel: 'c' },
      { dogu: 1, type: 'toast', message: 'no channel' },
    ]) {
      expect(parseFromFrame(data), JSON.stringify(data)).toBeUndefined();
    }
  });
});
