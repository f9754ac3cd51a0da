/**
 * The builder's undo/redo: a bounded list of draft states. Changes that share a coalescing key
 * (the field being typed into) in a row make one step, so Ctrl+Z undoes a whole word typed into
 * a label rather than its last letter.
 */
import { useCallback, useState } from 'react';

/** How many past states are kept; older ones are dropped first. */
export const historyLimit = 100;

export interface History<T> {
  past: T[];
  present: T;
  future: T[];
  /** The key of the last change (undefined: the next change starts a new step). */
  lastKey?: unknown;
  /** Counts undos and redos: editors that keep their own text remount when it changes. */
  travels?: number;
}

export const startHistory = <T>(present: T): History<T> => ({ past: [], present, future: [] });

/** Records `next`; a change with the same key as the one before replaces it instead of adding a step. */
export function record<T>(history: History<T>, next: T, key?: unknown): History<T> {
  if (Object.is(next, history.present)) return history;
  if (key !== undefined && key === history.lastKey) return { ...history, present: next, future: [] };
  const past = [...history.past, history.present].slice(-historyLimit);
  return { past, present: next, future: [], lastKey: key, travels: history.travels };
}

export function undo<T>(history: History<T>): History<T> {
  const previous = history.past.at(-1);
  if (previous === undefined) return history;
  return {
    past: history.past.slice(0, -1),
    present: previous,
    future: [history.present, ...history.future],
    travels: (history.travels ?? 0) + 1,
  };
}

export function redo<T>(history: History<T>): History<T> {
  const next = history.future[0];
  if (next === undefined) return history;
  return {
    past: [...history.past, history.present].slice(-historyLimit),
    present: next,
    future: history.future.slice(1),
    travels: (history.travels ?? 0) + 1,
  };
}

/**
 * State with history. `set` coalesces by the focused form control when no key is given: typing in
 * one field is one step, and moving to another field (or clicking a button) starts the next.
 */
export function useHistory<T>(initial: T) {
  const [history, setHistory] = useState(() => startHistory(initial));
  const set = useCallback((next: T, key: unknown = typingKey()) => {
    setHistory((h) => record(h, next, key));
  }, []);
  return {
    value: history.present,
    set,
    undo: useCallback(() => setHistory(undo), []),
    redo: useCallback(() => setHistory(redo), []),
    canUndo: history.past.length > 0,
    canRedo: history.future.length > 0,
    travels: history.travels ?? 0,
  };
}

/** The text field being typed into, if any (buttons, selects and checkboxes are steps of their own). */
function typingKey(): unknown {
  const active = typeof document === 'undefined' ? null : document.activeElement;
  if (active instanceof HTMLTextAreaElement) return active;
  if (active instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit'].includes(active.type))
    return active;
  return undefined;
}

/** Ctrl+Z / Cmd+Z undoes, with Shift (or Ctrl+Y) redoes; which one a key event asks for, if any. */
export function historyKey(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): 'undo' | 'redo' | undefined {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return undefined;
  const key = event.key.toLowerCase();
  if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && !event.shiftKey) return 'redo';
  return undefined;
}
