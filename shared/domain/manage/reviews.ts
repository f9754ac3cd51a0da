/**
 * Deciding review requests. Approval is a conditional write from `pending`, so
 * of two approvals at once exactly one runs the action; the run uses the
 * request's pinned version and arguments, as the requester.
 */
import { checkActionPermission } from '../authorize.ts';
import { DoguError, forbidden, notFound } from '../errors.ts';
import { type ExecutionOutcome, executeAction, previewForReview } from '../execute-action.ts';
import type { ExecutionDeps } from '../execution-deps.ts';
import { reviewEvent } from '../execution-events.ts';
import type { Principal } from '../model.ts';
import { previewChange } from '../review-preview.ts';
import { effectiveStatus, type ReviewRequest, type ReviewStatus } from '../reviews.ts';
import { authorize } from './access.ts';
import { loadVersion } from './versions.ts';

async function loadReview(deps: ExecutionDeps, projectId: string, reviewId: string): Promise<ReviewRequest> {
  const review = await deps.reviews.getReview(projectId, reviewId);
  if (!review) throw notFound('Review request', reviewId);
  return { ...review, status: effectiveStatus(review, deps.clock.now()) };
}

function requirePending(review: ReviewRequest): void {
  if (review.status === 'pending') return;
  const why =
    review.status === 'expired'
      ? `it expired at ${review.expiresAt}`
      : `it was ${review.status}${review.decidedBy ? ` by ${review.decidedBy.email}` : ''}`;
  throw new DoguError('state_conflict', `Review request '${review.id}' cannot be decided: ${why}.`, {
    extra: { reviewStatus: review.status },
  });
}

export async function getReview(
  deps: ExecutionDeps,
  principal: Principal,
  projectId: string,
  reviewId: string,
) {
  await authorize(deps.store, principal, projectId, 'view');
  return loadReview(deps, projectId, reviewId);
}

export async function listReviews(
  deps: ExecutionDeps,
  principal: Principal,
  projectId: string,
  filter: { status?: ReviewStatus; actionId?: string },
) {
  await authorize(deps.store, principal, projectId, 'view');
  const now = deps.clock.now();
  return (await deps.reviews.listReviews(projectId))
    .map((r) => ({ ...r, status: effectiveStatus(r, now) }))
    .filter(
      (r) =>
        (!filter.status || r.status === filter.status) &&
        (!filter.actionId || r.actionId === filter.actionId),
    );
}

async function decide(
  deps: ExecutionDeps,
  review: ReviewRequest,
  status: ReviewStatus,
  decider: Principal,
  comment: string | undefined,
): Promise<ReviewRequest> {
  const decided: ReviewRequest = {
    ...review,
    status,
    decidedBy: { id: decider.id, email: decider.email },
    decidedAt: deps.clock.now().toISOString(),
    ...(comment ? { decisionComment: comment } : {}),
  };
  if (!(await deps.reviews.updateReview(decided, 'pending'))) {
    // Another decision landed first: say which.
    requirePending(await loadReview(deps, review.projectId, review.id));
    throw new DoguError(
      'state_conflict',
      `Review request '${review.id}' changed meanwhile; look at it again.`,
    );
  }
  if (status !== 'cancelled') {
    await deps.notifications?.notify(
      reviewEvent({ id: review.actionId }, decided, 'review_decided', decided.decidedAt!),
    );
  }
  return decided;
}

export async function approveReview(
  deps: ExecutionDeps,
  approver: Principal,
  projectId: string,
  reviewId: string,
  comment?: string,
  options: { acceptPreviewChange?: boolean } = {},
): Promise<{ review: ReviewRequest; run?: ExecutionOutcome }> {
  const membership = await authorize(deps.store, approver, projectId, 'approve_reviews');
  const review = await loadReview(deps, projectId, reviewId);
  requirePending(review);
  if (review.requestedBy.id === approver.id) throw forbidden('You cannot approve your own review request.');
  // The approver must be someone who could run this action themselves.
  const version = await loadVersion(deps, projectId, review.actionId, review.actionVersion);
  checkActionPermission(
    { ...version.definition, projectId, version: version.version } as never,
    approver,
    membership,
    {},
  );

  // The preview taken at request time is taken again (decision 0185): different numbers stop the
  // approval until the approver has seen them.
  let previewAtApproval: ReviewRequest['previewAtApproval'];
  if (review.preview?.statements) {
    previewAtApproval = await previewForReview(deps, {
      principal: { ...review.requestedBy },
      projectId,
      environmentId: review.environmentId,
      actionId: review.actionId,
      arguments: review.arguments,
      via: 'review',
      review: { id: review.id, version: review.actionVersion },
      ...(review.source ? { source: review.source } : {}),
    });
    const change = previewChange(review.preview, previewAtApproval);
    if (change && !options.acceptPreviewChange) {
      throw new DoguError(
        'state_conflict',
        `The preview taken now differs from the one the request was made with: ${change}. Nothing ran; look at the new numbers, then approve with acceptPreviewChange: true to run it anyway.`,
        { extra: { reason: 'preview_changed', previewAtRequest: review.preview, previewAtApproval } },
      );
    }
  }

  const approved = await decide(
    deps,
    previewAtApproval ? { ...review, previewAtApproval } : review,
    'approved',
    approver,
    comment,
  );
  let run: ExecutionOutcome | undefined;
  let executionError: ReviewRequest['executionError'];
  try {
    const outcome = await executeAction(deps, {
      principal: { ...review.requestedBy },
      projectId,
      environmentId: review.environmentId,
      actionId: review.actionId,
      arguments: review.arguments,
      via: 'review',
      review: { id: review.id, version: review.actionVersion },
      ...(review.source ? { source: review.source } : {}),
      ...(review.agent ? { agent: { client: review.agent.client, reviewChanges: false } } : {}),
    });
    run = outcome as ExecutionOutcome;
    if (run.execution.status !== 'succeeded') executionError = run.execution.error;
  } catch (error) {
    executionError =
      error instanceof DoguError
        ? { code: error.code, message: error.message }
        : { code: 'internal_error', message: 'The approved run failed unexpectedly.' };
  }
  const executed: ReviewRequest = {
    ...approved,
    status: 'executed',
    ...(run ? { executionId: run.execution.id } : {}),
    ...(executionError ? { executionError } : {}),
  };
  await deps.reviews.updateReview(executed, 'approved');
  return { review: executed, ...(run ? { run } : {}) };
}

export async function rejectReview(
  deps: ExecutionDeps,
  decider: Principal,
  projectId: string,
  reviewId: string,
  comment?: string,
) {
  await authorize(deps.store, decider, projectId, 'approve_reviews');
  const review = await loadReview(deps, projectId, reviewId);
  requirePending(review);
  if (review.requestedBy.id === decider.id)
    throw forbidden('You cannot reject your own request; cancel it instead.');
  return decide(deps, review, 'rejected', decider, comment);
}

export async function cancelReview(
  deps: ExecutionDeps,
  requester: Principal,
  projectId: string,
  reviewId: string,
) {
  await authorize(deps.store, requester, projectId, 'view');
  const review = await loadReview(deps, projectId, reviewId);
  if (review.requestedBy.id !== requester.id)
    throw forbidden('Only the requester can cancel a review request.');
  requirePending(review);
  return decide(deps, review, 'cancelled', requester, undefined);
}
