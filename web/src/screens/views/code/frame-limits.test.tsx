/**
 * The limits on what a code view makes the console show (decision 0228), on a clock the test moves:
 * toasts past five in ten seconds are dropped, one CSV file per two seconds, one question at a
 * time, and none for a minute after three declines.
 */
import { describe, expect, it } from 'vitest';
import { declineLimit, exportLimit, questionGate, slidingWindow, toastLimit } from './frame-limits.ts';

function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('slidingWindow', () => {
  it('lets five toasts through in ten seconds and the next once the first has aged out', () => {
    const time = clock();
    const toasts = slidingWindow(toastLimit, time.now);
    const taken: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      taken.push(toasts.take());
      time.advance(1000);
    }
    taken.push(toasts.take(), toasts.take());
    expect(taken).toEqual([true, true, true, true, true, false, false]);
    time.advance(toastLimit.windowMs - 5000 - 1);
    expect(toasts.take()).toBe(false);
    time.advance(1);
    expect(toasts.take()).toBe(true);
    expect(toasts.take()).toBe(false);
  });

  it('lets one CSV file through per two seconds', () => {
    const time = clock();
    const exports = slidingWindow(exportLimit, time.now);
    expect(exports.take()).toBe(true);
    expect(exports.take()).toBe(false);
    time.advance(exportLimit.windowMs);
    expect(exports.take()).toBe(true);
  });
});

describe('questionGate', () => {
  it('refuses a second question while one is open', () => {
    const gate = questionGate(clock().now);
    expect(gate.begin()).toBeUndefined();
    expect(gate.begin()).toBe('pending');
    gate.answered(true);
    expect(gate.begin()).toBeUndefined();
  });

  it('stops asking for a minute after three declines, agreeing does not count', () => {
    const time = clock();
    const gate = questionGate(time.now);
    for (const agreed of [false, true, false, true, false]) {
      expect(gate.begin()).toBeUndefined();
      gate.answered(agreed);
      time.advance(1000);
    }
    expect(gate.begin()).toBe('declinedTooOften');
    time.advance(declineLimit.windowMs - 4000);
    // the first decline has aged out: two in the window
    expect(gate.begin()).toBeUndefined();
  });
});
