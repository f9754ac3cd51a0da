/**
 * Runs a plan's PUT requests in order and stops at the first that fails. Each PUT is atomic on the
 * service, so a stop leaves whole resources: applying the file again finishes the job.
 */
import { ApiError } from '../api-client.ts';
import type { ManagementApi } from './management-api.ts';
import type { Plan, WriteStep } from './plan.ts';

export interface AppliedStep {
  step: WriteStep;
  /** Whether the service created the resource (201) or updated it. */
  created: boolean;
  /** What the service answered (the saved resource), for progress lines. */
  saved: Record<string, unknown>;
}

export class ApplyError extends Error {
  constructor(
    readonly failed: WriteStep,
    override readonly cause: ApiError,
    readonly applied: AppliedStep[],
    readonly notApplied: WriteStep[],
  ) {
    super(cause.message);
    this.name = 'ApplyError';
  }
}

/** Someone saved the resource after the plan read it; the plan's diff no longer describes the change. */
export class ConcurrentChangeError extends ApiError {
  constructor() {
    super(409, 'it was changed by someone else after the plan was read');
    this.name = 'ConcurrentChangeError';
  }
}

export function cannotApplyReason(plan: Plan): string | undefined {
  const missing = plan.resources.flatMap((r) => r.writeOnly.filter((w) => w.status === 'missing'));
  if (plan.problems.length > 0) return 'the file refers to things the project does not have (see above)';
  if (missing.length > 0) {
    const names = [...new Set(missing.map((w) => `$${w.envVar}`))];
    return `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} not set, and there is no stored value to keep (see above)`;
  }
  return undefined;
}

export async function applyPlan(
  api: ManagementApi,
  plan: Plan,
  onApplied: (applied: AppliedStep) => void = () => {},
): Promise<AppliedStep[]> {
  const reason = cannotApplyReason(plan);
  if (reason) throw new Error(`Nothing was applied: ${reason}.`);
  const applied: AppliedStep[] = [];
  // What this apply creates gets its id now; later steps name it by what the file calls it.
  const ids = {
    principals: new Map(plan.ids.principals),
    cronJobs: new Map(plan.ids.cronJobs),
    notificationTargets: new Map(plan.ids.notificationTargets),
  };
  for (const [index, step] of plan.steps.entries()) {
    try {
      // A trust policy of an account this apply created: the account's id is known only now.
      const path = step.pathFor?.(ids) ?? step.path;
      await checkGuard(api, step, path);
      const { created, saved } = await api.put(path, step.bodyFor?.(ids) ?? step.body, {
        ...(step.ifMatch === undefined ? {} : { ifMatch: step.ifMatch }),
        ...(step.method ? { method: step.method } : {}),
      });
      const madeId = step.identifies ? saved?.[step.identifies.field] : undefined;
      if (step.identifies && typeof madeId === 'string')
        ids[step.identifies.map].set(step.identifies.key, madeId);
      // Publishing answers 200 either way, with the version it replaced (null: there was none).
      const done = {
        step,
        created:
          created ||
          ((step.resource.kind === 'publication' || step.resource.kind === 'viewPublication') &&
            saved?.previousVersion === null),
        saved,
      };
      applied.push(done);
      onApplied(done);
    } catch (error) {
      // Also when Dogu became unreachable mid-way: what was applied is worth knowing then too.
      if (!(error instanceof ApiError)) throw error;
      throw new ApplyError(step, error, applied, plan.steps.slice(index));
    }
  }
  return applied;
}

/**
 * Data sources, master data lists, variables, members and groups take no If-Match, so they are
 * read again just before the write (groups: their version; members: their role). This narrows the window for a lost update to the moment between
 * read and write; versions on those resources would close it (see docs/config.md).
 */
async function checkGuard(api: ManagementApi, step: WriteStep, path: string): Promise<void> {
  if (!step.guard) return;
  const { read } = step.guard;
  const current = await api.get(read?.path ?? path);
  const actual = read ? (current ? read.select(current) : undefined) : current?.[step.guard.field];
  if (actual !== step.guard.expected) throw new ConcurrentChangeError();
}
