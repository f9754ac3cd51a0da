/**
 * A fixed number of slots shared fairly: waiting callers are served in turn (one waiter of each
 * caller before a second of any), so one caller's burst cannot starve the others. A wait ends at
 * the waiter's time limit: queue time is part of a run's limit, never added to it.
 */
interface Waiter {
  grant(): void;
}

export class FairSlots {
  private running = 0;
  /** Callers in the order they are served next (a Map keeps insertion order). */
  private readonly waiting = new Map<string, Waiter[]>();

  constructor(private readonly capacity: number) {}

  /** Resolves true holding a slot (give it back with release()), or false when `waitMs` passed first. */
  acquire(caller: string, waitMs: number): Promise<boolean> {
    if (this.running < this.capacity) {
      this.running++;
      return Promise.resolve(true);
    }
    if (waitMs <= 0) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        const queue = this.waiting.get(caller);
        const index = queue?.indexOf(waiter) ?? -1;
        if (queue && index >= 0) queue.splice(index, 1);
        if (queue?.length === 0) this.waiting.delete(caller);
        resolve(false);
      }, waitMs);
      const queue = this.waiting.get(caller);
      if (queue) queue.push(waiter);
      else this.waiting.set(caller, [waiter]);
    });
  }

  /** Hands the slot to the next caller in turn, who then goes to the back of the line. */
  release(): void {
    const next = this.waiting.entries().next();
    if (next.done) {
      this.running--;
      return;
    }
    const [caller, queue] = next.value;
    const waiter = queue.shift()!;
    this.waiting.delete(caller);
    if (queue.length > 0) this.waiting.set(caller, queue);
    waiter.grant();
  }

  /** Nothing running and nobody waiting: a lane made for one run tree can be forgotten. */
  get idle(): boolean {
    return this.running === 0 && this.waiting.size === 0;
  }
}
