/**
 * Review requests (spec 1, 2.1): an action that requires review runs only
 * after another user approves. The request pins the exact version and
 * arguments; approval runs them once. Every decision is a conditional write on
 * the status, so two approvals arriving together run the action once.
 *
 *   pending ──approve──▶ approved ──(run)──▶ executed
 *      │ └───reject───▶ rejected
 *      ├───cancel───▶ cancelled (by the requester)
 *      └──(time)────▶ expired (seen on read; no decision possible)
 */
import type { ReviewPreview } from './review-preview.ts';

export type ReviewStatus = 'pending' | 'approved' | 'executed' | 'rejected' | 'cancelled' | 'expired';

export interface ReviewRequest {
  id: string;
  projectId: string;
  environmentId: string;
  actionId: string;
  actionVersion: number;
  /** The arguments as the requester gave them; bound again, with the same version, when approved. */
  arguments: Record<string, unknown>;
  requestedBy: { kind: 'user' | 'service_account'; id: string; email: string; name: string };
  requestedAt: string;
  expiresAt: string;
  comment?: string;
  /** Requested from a view (docs/views.md); the approved run carries it too. */
  source?: { viewId: string };
  status: ReviewStatus;
  decidedBy?: { id: string; email: string };
  decidedAt?: string;
  decisionComment?: string;
  executionId?: string;
  /** Why the approved run did not succeed, if it did not. */
  executionError?: { code: string; message: string };
  /** What the write would do, taken when the request was made (data-changing SQL; decision 0185). */
  preview?: ReviewPreview;
  /** The same preview taken again when it was approved. */
  previewAtApproval?: ReviewPreview;
}

export interface ReviewStore {
  createReview(review: ReviewRequest): Promise<void>;
  getReview(projectId: string, reviewId: string): Promise<ReviewRequest | undefined>;
  /** Newest first. */
  listReviews(projectId: string): Promise<ReviewRequest[]>;
  /** Replaces the review only if its stored status is `expected`; false when another decision came first. */
  updateReview(review: ReviewRequest, expected: ReviewStatus): Promise<boolean>;
}

/** Pending requests past their time are expired, whatever the stored status says. */
export function effectiveStatus(review: ReviewRequest, now: Date): ReviewStatus {
  return review.status === 'pending' && Date.parse(review.expiresAt) <= now.getTime()
    ? 'expired'
    : review.status;
}
