/**
 * The embedded runtime's scheduler: croner computes each job's next time in its zone; one timer
 * waits for the earliest due time of all jobs (a binary heap), so 10,000 jobs cost one timer. Jobs and
 * reservations live in the store; this only holds the next due time of each, rebuilt at start-up.
 */

import type { CronJob, Reservation } from '../shared/domain/scheduling/model.ts';
import type { Scheduler } from '../shared/domain/scheduling/ports.ts';
import {
  type CompiledSchedule,
  compileSchedule,
  eventBridgeExpressions,
} from '../shared/domain/scheduling/schedule-expression.ts';
import { MinHeap } from './min-heap.ts';

export type Delivery =
  | { kind: 'cron'; projectId: string; jobId: string; scheduledAt: string }
  | { kind: 'reservation'; projectId: string; reservationId: string };

interface Entry {
  at: number;
  key: string;
  generation: number;
}

interface Armed {
  generation: number;
  /** For cron jobs: the compiled schedule; absent for a reservation (fires once). */
  schedule?: CompiledSchedule;
  delivery: (at: Date) => Delivery;
}

/** Re-check at least this often, so a changed wall clock or a very distant time cannot stall the loop. */
const maxSleepMs = 30_000;

/**
 * Linux lets a poll/epoll time-out expire up to 0.1 % of its length late (the kernel's timer slack for
 * select/poll, `select_estimate_accuracy`): a Node timer 30 s ahead may fire 30 ms late, 60 s ahead
 * 60 ms. So a long sleep ends this much early and a short final one (≤ 1 s: ≤ 1 ms of slack) waits
 * for the due time itself.
 */
const finalSleepMs = 1_000;

/** Jobs whose next time is computed per turn of the event loop after they fired. */
const rearmSlice = 16;

/** How long to sleep before looking at the heap again when the next entry is `remaining` ms away. */
export function sleepFor(remaining: number): number {
  if (remaining <= finalSleepMs) return Math.max(remaining, 0);
  return Math.min(remaining - finalSleepMs, maxSleepMs);
}

export class LocalScheduler implements Scheduler {
  private readonly heap = new MinHeap<Entry>((a, b) => a.at - b.at);
  private readonly armed = new Map<string, Armed>();
  private generation = 0;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private inFlight = 0;
  private readonly queue: Delivery[] = [];
  private readonly idle = new Set<() => void>();

  constructor(
    private readonly deliver: (delivery: Delivery) => Promise<unknown>,
    private readonly options: {
      now?: () => number;
      /** Deliveries running at once; more wait in order. */
      concurrency?: number;
      /** Called after each pass with the time everything up to which has been handed over. */
      onWatermark?: (at: Date) => void;
      onError?: (error: unknown, delivery: Delivery) => void;
    } = {},
  ) {}

  private now() {
    return this.options.now?.() ?? Date.now();
  }

  async putCronJob(job: CronJob): Promise<void> {
    const key = `cron:${job.id}`;
    if (job.state !== 'running') {
      this.armed.delete(key);
      return;
    }
    const schedule = compileSchedule(eventBridgeExpressions(job.schedule), job.timeZone);
    const { projectId, id: jobId } = job;
    this.arm(key, schedule.next(new Date(this.now())), {
      schedule,
      delivery: (at) => ({ kind: 'cron', projectId, jobId, scheduledAt: at.toISOString() }),
    });
  }

  async deleteCronJob(job: CronJob): Promise<void> {
    this.armed.delete(`cron:${job.id}`);
  }

  async putReservation(reservation: Reservation): Promise<void> {
    const { projectId, id: reservationId } = reservation;
    this.arm(`reservation:${reservation.id}`, new Date(reservation.runAt), {
      delivery: () => ({ kind: 'reservation', projectId, reservationId }),
    });
  }

  async deleteReservation(reservation: Reservation): Promise<void> {
    this.armed.delete(`reservation:${reservation.id}`);
  }

  /** Number of armed jobs and reservations. */
  get size() {
    return this.armed.size;
  }

  start() {
    this.running = true;
    this.wake();
  }

  /** Stops firing; waits for deliveries already handed over. */
  async stop() {
    this.running = false;
    clearTimeout(this.timer);
    this.queue.length = 0;
    if (this.inFlight > 0) await new Promise<void>((resolve) => this.idle.add(resolve));
  }

  private arm(key: string, at: Date | undefined, armed: Omit<Armed, 'generation'>) {
    if (!at) {
      this.armed.delete(key);
      return;
    }
    const generation = ++this.generation;
    this.armed.set(key, { ...armed, generation });
    this.heap.push({ at: at.getTime(), key, generation });
    if (this.heap.peek()?.generation === generation) this.wake();
  }

  private wake() {
    if (!this.running) return;
    clearTimeout(this.timer);
    const next = this.heap.peek();
    if (!next) return;
    this.timer = setTimeout(() => this.fire(), sleepFor(next.at - this.now()));
  }

  private fire() {
    const now = this.now();
    const fired: Entry[] = [];
    for (let entry = this.heap.peek(); entry && entry.at <= now; entry = this.heap.peek()) {
      this.heap.pop();
      const armed = this.armed.get(entry.key);
      if (!armed || armed.generation !== entry.generation) continue; // replaced or removed since
      this.enqueue(armed.delivery(new Date(entry.at)));
      fired.push(entry);
    }
    this.options.onWatermark?.(new Date(now));
    // Every due run is handed over before any next time is computed: croner takes up to a millisecond
    // per next time (a yearly expression), so 300 jobs due together would otherwise wait up to 300 ms
    // for each other's arithmetic. A cron job's next time is at least a minute away, so rearming a
    // little later loses nothing; it runs in slices that let the runs' claims and I/O go first.
    this.rearm(fired);
  }

  private rearm(fired: Entry[]) {
    if (fired.length === 0) {
      this.wake();
      return;
    }
    const slice = fired.splice(0, rearmSlice);
    setImmediate(() => {
      for (const entry of slice) {
        const armed = this.armed.get(entry.key);
        if (!armed || armed.generation !== entry.generation) continue; // replaced or removed meanwhile
        const next = armed.schedule?.next(new Date(entry.at));
        if (next) this.heap.push({ at: next.getTime(), key: entry.key, generation: entry.generation });
        else this.armed.delete(entry.key);
      }
      this.rearm(fired);
    });
  }

  private enqueue(delivery: Delivery) {
    this.queue.push(delivery);
    this.drain();
  }

  private drain() {
    // High: a delivery mostly waits for its data source's pool, which bounds the real work; a low limit
    // here would only make due runs start late.
    const limit = this.options.concurrency ?? 1000;
    while (this.inFlight < limit && this.queue.length > 0) {
      const delivery = this.queue.shift()!;
      this.inFlight++;
      this.deliver(delivery)
        .catch((error) => this.options.onError?.(error, delivery))
        .finally(() => {
          this.inFlight--;
          this.drain();
          if (this.inFlight === 0) {
            for (const resolve of this.idle) resolve();
            this.idle.clear();
          }
        });
    }
  }
}
