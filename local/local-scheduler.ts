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
    const delay = Math.min(Math.max(next.at - this.now(), 0), maxSleepMs);
    this.timer = setTimeout(() => this.fire(), delay);
  }

  private fire() {
    const now = this.now();
    for (let entry = this.heap.peek(); entry && entry.at <= now; entry = this.heap.peek()) {
      this.heap.pop();
      const armed = this.armed.get(entry.key);
      if (!armed || armed.generation !== entry.generation) continue; // replaced or removed since
      const at = new Date(entry.at);
      this.enqueue(armed.delivery(at));
      const next = armed.schedule?.next(at);
      if (next) this.heap.push({ at: next.getTime(), key: entry.key, generation: entry.generation });
      else this.armed.delete(entry.key);
    }
    this.options.onWatermark?.(new Date(now));
    this.wake();
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
