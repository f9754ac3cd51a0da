import { describe, expect, it } from 'vitest';
import { historyKey, historyLimit, record, redo, startHistory, undo } from './history.ts';

describe('the builder history', () => {
  it('undoes and redoes steps, and a new change drops what could be redone', () => {
    let h = record(record(startHistory('a'), 'b'), 'c');
    h = undo(h);
    expect(h.present).toBe('b');
    h = undo(h);
    expect(h.present).toBe('a');
    expect(undo(h)).toBe(h);
    h = redo(h);
    expect(h.present).toBe('b');
    h = record(h, 'x');
    expect(h.future).toEqual([]);
    expect(redo(h)).toBe(h);
    expect(undo(h).present).toBe('b');
  });

  it('makes one step of changes with the same key in a row', () => {
    const field = {};
    let h = record(startHistory(''), 'h', field);
    h = record(h, 'he', field);
    h = record(h, 'hey', field);
    h = record(h, 'hey!', {});
    expect(undo(h).present).toBe('hey');
    expect(undo(undo(h)).present).toBe('');
  });

  it('keeps at most the last hundred steps', () => {
    let h = startHistory(0);
    for (let i = 1; i <= historyLimit + 20; i++) h = record(h, i);
    expect(h.past).toHaveLength(historyLimit);
    while (h.past.length > 0) h = undo(h);
    expect(h.present).toBe(20);
  });

  it('reads Ctrl/Cmd+Z, Ctrl/Cmd+Shift+Z and Ctrl+Y', () => {
    const k = (key: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>>) =>
      historyKey({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });
    expect(k('z', { ctrlKey: true })).toBe('undo');
    expect(k('z', { metaKey: true })).toBe('undo');
    expect(k('Z', { ctrlKey: true, shiftKey: true })).toBe('redo');
    expect(k('Z', { metaKey: true, shiftKey: true })).toBe('redo');
    expect(k('y', { ctrlKey: true })).toBe('redo');
    expect(k('z', {})).toBeUndefined();
    expect(k('z', { ctrlKey: true, altKey: true })).toBeUndefined();
  });
});
