/**
 * Runs work holding a named lease of the store, so read-modify-write sequences on one record
 * (a service account and its trust policies) cannot interleave without transactions.
 */
import { DoguError } from '../errors.ts';
import type { Clock, Coordination } from '../ports.ts';

/** Long enough for a few reads and writes; a holder that crashed blocks others at most this long. */
const leaseMs = 10_000;
const attempts = 12;

export async function underLease<T>(
  deps: { coordination: Pick<Coordination, 'acquireLock' | 'releaseLock'>; clock: Clock },
  name: string,
  what: string,
  work: () => Promise<T>,
): Promise<T> {
  const holder = crypto.randomUUID();
  for (
    let attempt = 0;
    !(await deps.coordination.acquireLock(name, holder, deps.clock.now(), leaseMs));
    attempt++
  ) {
    if (attempt >= attempts) {
      throw new DoguError('state_conflict', `The ${what} is being changed by someone else; try again.`);
    }
    const backoffMs = Math.min(250, 10 * 2 ** attempt);
    await new Promise((resolve) => setTimeout(resolve, backoffMs / 2 + Math.random() * backoffMs));
  }
  try {
    return await work();
  } finally {
    await deps.coordination.releaseLock(name, holder);
  }
}
