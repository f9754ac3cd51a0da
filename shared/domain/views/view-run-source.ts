/**
 * A run started from a view (`source: {viewId}`) is recorded with it, never trusted for rights: the
 * view must exist and be visible to the caller, and the action is checked as for any call. A view's
 * code may loop, so its runs are counted per viewer and view (429 past the limit, decision 0151).
 */
import type { ExecutionSource, Principal } from '../model.ts';
import type { Clock, Store } from '../ports.ts';
import { takeViewRun, type ViewRunLimit } from './view-run-limit.ts';
import { requireVisibleView } from './visibility.ts';

export async function viewRunSource(
  deps: { store: Store; clock: Clock; viewRunLimit?: ViewRunLimit },
  principal: Principal,
  projectId: string,
  viewId: string,
): Promise<ExecutionSource> {
  await requireVisibleView(deps, principal, projectId, viewId);
  await takeViewRun(
    deps.viewRunLimit,
    { projectId, viewId, principalId: principal.id },
    deps.clock.now().getTime(),
  );
  return { viewId };
}
