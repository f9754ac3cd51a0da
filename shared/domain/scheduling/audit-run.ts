/**
 * The audit entry of a run nobody requested over HTTP at that moment (cron, reservation, job, batch
 * row): the actor is the executor, so the log names the service account when one ran it (spec 2.8).
 */
import type { Execution, Principal } from '../model.ts';
import type { SchedulingDeps } from './deps.ts';

export async function auditScheduledExecution(
  deps: Pick<SchedulingDeps, 'audit' | 'ids' | 'clock'>,
  executor: Pick<Principal, 'kind' | 'id' | 'email'>,
  execution: Execution,
): Promise<void> {
  try {
    await deps.audit.append({
      id: deps.ids.next('aud'),
      projectId: execution.projectId,
      at: deps.clock.now().toISOString(),
      actor: { kind: executor.kind, id: executor.id, email: executor.email },
      event: 'execution.run',
      target: { type: 'action', id: execution.actionId },
      environmentId: execution.environmentId,
      outcome: execution.status === 'succeeded' ? 'succeeded' : 'failed',
      details: {
        executionId: execution.id,
        status: execution.status,
        actionVersion: execution.actionVersion,
        via: execution.via,
        ...execution.origin,
      },
    });
  } catch {
    // The run happened; a missing entry must not turn it into a failure (as for HTTP calls).
  }
}
