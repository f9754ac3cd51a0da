/** The sandbox pool's slots (decision 0077): callers in turn, and a wait that ends at the limit. */
import { describe, expect, it } from 'vitest';
import { FairSlots } from '../../shared/adapters/sandbox/fair-slots.ts';

describe('FairSlots', () => {
  it('serves waiting callers in turn, so a burst of one does not starve another', async () => {
    const slots = new FairSlots(1);
    expect(await slots.acquire('busy', 1_000)).toBe(true);
    const order: string[] = [];
    const waits = [
      ...['busy-1', 'busy-2', 'busy-3'].map((name) => slots.acquire('busy', 5_000).then(() => name)),
      slots.acquire('other', 5_000).then(() => 'other'),
    ].map((wait) =>
      wait.then((name) => {
        order.push(name);
        slots.release();
      }),
    );
    slots.release();
    await Promise.all(waits);
    expect(order).toEqual(['busy-1', 'other', 'busy-2', 'busy-3']);
    expect(slots.idle).toBe(true);
  });

  it('gives up a wait at its limit, leaving the queue as it was for the others', async () => {
    const slots = new FairSlots(1);
    await slots.acquire('a', 1_000);
    const started = Date.now();
    expect(await slots.acquire('b', 100)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
    const next = slots.acquire('c', 5_000);
    slots.release();
    expect(await next).toBe(true);
    slots.release();
    expect(slots.idle).toBe(true);
  });
});
