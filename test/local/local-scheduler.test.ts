/** The embedded scheduler's timing: one timer over a heap of due times, croner in each job's zone. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Delivery, LocalScheduler, sleepFor } from '../../local/local-scheduler.ts';
import { MinHeap } from '../../local/min-heap.ts';
import type { CronJob, Reservation } from '../../shared/domain/scheduling/model.ts';

const job = (id: string, expression: string, overrides: Partial<CronJob> = {}): CronJob => ({
  id,
  projectId: 'p',
  environmentId: 'e',
  name: id,
  schedule: { kind: 'cron', expression },
  timeZone: 'Asia/Tokyo',
  actionId: 'a',
  arguments: {},
  executor: { kind: 'user', id: 'u', email: 'u@example.com' },
  setBy: { id: 'u', email: 'u@example.com' },
  state: 'running',
  overlap: 'allow',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  version: 1,
  ...overrides,
});

const reservation = (id: string, runAt: string): Reservation => ({
  id,
  projectId: 'p',
  environmentId: 'e',
  actionId: 'a',
  arguments: {},
  runAt,
  timeZone: 'Asia/Tokyo',
  executor: { kind: 'user', id: 'u', email: 'u@example.com' },
  createdBy: { id: 'u', email: 'u@example.com' },
  status: 'scheduled',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

let delivered: (Delivery & { firedAt: number })[];
let scheduler: LocalScheduler;
beforeEach(() => {
  // 2026-11-20 08:59:30 JST
  vi.useFakeTimers({ now: new Date('2026-11-19T23:59:30Z') });
  delivered = [];
  scheduler = new LocalScheduler(async (delivery) => {
    delivered.push({ ...delivery, firedAt: Date.now() });
  });
  scheduler.start();
});
afterEach(async () => {
  await scheduler.stop();
  vi.useRealTimers();
});

describe('LocalScheduler', () => {
  it('fires a job at each due minute in its zone, with the scheduled time', async () => {
    await scheduler.putCronJob(job('nine', '0 9 ? * * *')); // 09:00 JST daily
    await vi.advanceTimersByTimeAsync(29_000);
    expect(delivered).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(delivered).toEqual([
      {
        kind: 'cron',
        projectId: 'p',
        jobId: 'nine',
        scheduledAt: '2026-11-20T00:00:00.000Z',
        firedAt: Date.parse('2026-11-20T00:00:00Z'),
      },
    ]);
    await vi.advanceTimersByTimeAsync(24 * 3600_000);
    expect(delivered.map((d) => (d.kind === 'cron' ? d.scheduledAt : ''))).toEqual([
      '2026-11-20T00:00:00.000Z',
      '2026-11-21T00:00:00.000Z',
    ]);
  });

  it('keeps many jobs on one timer and fires them in time order', async () => {
    for (let i = 0; i < 500; i++) await scheduler.putCronJob(job(`j${i}`, `${i % 3} 9 ? * * *`));
    expect(scheduler.size).toBe(500);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(3 * 60_000);
    expect(delivered).toHaveLength(500);
    const times = delivered.map((d) => d.firedAt);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(new Set(delivered.map((d) => (d.kind === 'cron' ? d.scheduledAt : ''))).size).toBe(3);
  });

  it('rearms fired jobs after their deliveries, keeping a job changed or removed in between', async () => {
    const changing = new LocalScheduler(async (delivery) => {
      delivered.push({ ...delivery, firedAt: Date.now() });
      // Changed and removed while their next times are not computed yet.
      if (delivery.kind === 'cron' && delivery.jobId === 'changed') {
        await changing.putCronJob(job('changed', '5 9 ? * * *'));
      }
      if (delivery.kind === 'cron' && delivery.jobId === 'removed') {
        await changing.deleteCronJob(job('removed', '0 9 ? * * *'));
      }
    });
    changing.start();
    try {
      for (let i = 0; i < 40; i++) await changing.putCronJob(job(`j${i}`, '0 9 ? * * *'));
      await changing.putCronJob(job('changed', '0 9 ? * * *'));
      await changing.putCronJob(job('removed', '0 9 ? * * *'));
      await vi.advanceTimersByTimeAsync(24 * 3600_000 + 6 * 60_000);
      const at = (id: string) =>
        delivered.flatMap((d) => (d.kind === 'cron' && d.jobId === id ? [d.scheduledAt] : []));
      expect(at('j0')).toEqual(['2026-11-20T00:00:00.000Z', '2026-11-21T00:00:00.000Z']);
      expect(at('j39')).toEqual(at('j0'));
      expect(at('changed')).toEqual([
        '2026-11-20T00:00:00.000Z',
        '2026-11-20T00:05:00.000Z',
        '2026-11-21T00:05:00.000Z',
      ]);
      expect(at('removed')).toEqual(['2026-11-20T00:00:00.000Z']);
      expect(changing.size).toBe(41);
    } finally {
      await changing.stop();
    }
  });

  it('replaces a changed job, forgets a deleted or stopped one', async () => {
    await scheduler.putCronJob(job('a', '0 9 ? * * *'));
    await scheduler.putCronJob(job('a', '1 9 ? * * *')); // changed before it fired
    await scheduler.putCronJob(job('b', '0 9 ? * * *'));
    await scheduler.deleteCronJob(job('b', '0 9 ? * * *'));
    await scheduler.putCronJob(job('c', '0 9 ? * * *', { state: 'stopped' }));
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(delivered.map((d) => (d.kind === 'cron' ? `${d.jobId}@${d.scheduledAt}` : ''))).toEqual([
      'a@2026-11-20T00:01:00.000Z',
    ]);
  });

  it('fires a reservation once, and not after it was cancelled', async () => {
    await scheduler.putReservation(reservation('r1', '2026-11-20T00:02:00.000Z'));
    await scheduler.putReservation(reservation('r2', '2026-11-20T00:03:00.000Z'));
    await scheduler.deleteReservation(reservation('r2', '2026-11-20T00:03:00.000Z'));
    await vi.advanceTimersByTimeAsync(3600_000);
    expect(delivered.map((d) => (d.kind === 'reservation' ? d.reservationId : ''))).toEqual(['r1']);
    expect(scheduler.size).toBe(0);
  });

  it('bounds deliveries running at once and keeps the rest in order', async () => {
    await scheduler.stop();
    let running = 0;
    let most = 0;
    const order: string[] = [];
    scheduler = new LocalScheduler(
      async (delivery) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        order.push(delivery.kind === 'cron' ? delivery.jobId : '');
        running--;
      },
      { concurrency: 4 },
    );
    scheduler.start();
    for (let i = 0; i < 10; i++) await scheduler.putCronJob(job(`k${i}`, '0 9 ? * * *'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(order).toHaveLength(10);
    expect(most).toBe(4);
  });

  it('reports a watermark after each pass', async () => {
    await scheduler.stop();
    const marks: string[] = [];
    scheduler = new LocalScheduler(async () => {}, { onWatermark: (at) => marks.push(at.toISOString()) });
    scheduler.start();
    await scheduler.putCronJob(job('w', '0 9 ? * * *'));
    await vi.advanceTimersByTimeAsync(31_000);
    expect(marks).toContain('2026-11-20T00:00:00.000Z');
  });
});

describe('sleepFor', () => {
  it('ends a long wait a second early, so the kernel slack of a long poll time-out cannot make a run late', () => {
    // Linux may end a poll time-out up to 0.1 % late: 30 ms for a 30 s sleep, 1 ms for the final 1 s.
    expect(sleepFor(60_000)).toBe(30_000);
    expect(sleepFor(31_000)).toBe(30_000);
    expect(sleepFor(30_000)).toBe(29_000);
    expect(sleepFor(1_500)).toBe(500);
    expect(sleepFor(1_000)).toBe(1_000);
    expect(sleepFor(20)).toBe(20);
    expect(sleepFor(-5)).toBe(0);
  });
});

describe('MinHeap', () => {
  it('pops in order whatever the push order', () => {
    const heap = new MinHeap<number>((a, b) => a - b);
    const values = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
    for (const v of values) heap.push(v);
    const out: number[] = [];
    while (heap.size > 0) out.push(heap.pop()!);
    expect(out).toEqual([...values].sort((a, b) => a - b));
    expect(heap.pop()).toBeUndefined();
  });
});
