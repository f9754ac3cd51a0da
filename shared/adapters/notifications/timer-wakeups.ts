/**
 * The embedded runtime's wake-ups of the delivery worker: one timer, set to the earliest time asked
 * for. Deliveries themselves are in the store, so a restart loses only timers; start-up drains.
 */
import type { DeliveryWakeups } from '../../domain/notifications/ports.ts';

export class TimerWakeups implements DeliveryWakeups {
  private timer: NodeJS.Timeout | undefined;
  private at = Number.POSITIVE_INFINITY;
  private stopped = false;

  constructor(private readonly onWake: () => Promise<void>) {}

  wakeAt(when: Date): void {
    const at = when.getTime();
    if (this.stopped || (this.timer && at >= this.at)) return;
    clearTimeout(this.timer);
    this.at = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.at = Number.POSITIVE_INFINITY;
        this.onWake().catch(() => {});
      },
      Math.max(0, at - Date.now()),
    );
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}

/** On AWS a minute schedule drains due deliveries (decision 0031): nothing to arm in the Lambda. */
export const scheduledDrainWakeups: DeliveryWakeups = { wakeAt: () => {} };
