import type { AuditLog } from '../audit.ts';
import type { ExecutionDeps } from '../execution-deps.ts';
import type { IdentityStore } from '../identity/model.ts';
import type { JobRunner, Scheduler, SchedulingStore } from './ports.ts';

/** What scheduling use cases need: the execution path plus the scheduling ports. */
export interface SchedulingDeps extends ExecutionDeps {
  /** Service accounts that scheduled runs execute as. */
  identities: IdentityStore;
  schedules: SchedulingStore;
  scheduler: Scheduler;
  jobs: JobRunner;
  /** Scheduled runs are audited like manual ones, naming the executor (spec 2.8). */
  audit: AuditLog;
  /** Spec 8: a run as a job stops after 30 minutes (less where the platform cuts earlier). */
  maxJobExecutionMs: number;
}
