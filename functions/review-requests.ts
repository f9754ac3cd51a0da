import * as z from 'zod';
import { notFound } from '../shared/domain/errors.ts';
import * as reviews from '../shared/domain/manage/reviews.ts';
import type { ReviewStatus } from '../shared/domain/reviews.ts';
import { executionBody } from '../shared/http/execution-response.ts';
import { defineRoutes, type HttpRequest } from '../shared/http/handler.ts';
import type { CoreServices } from '../shared/runtime/core-services.ts';
import { actionEngines } from '../shared/runtime/groups/action-engines.ts';
import { executionPayloads } from '../shared/runtime/groups/execution-payloads.ts';
import { fileStorage } from '../shared/runtime/groups/file-storage.ts';
import { notifications as notificationCenter } from '../shared/runtime/groups/notifications.ts';
import { ownIdp } from '../shared/runtime/groups/own-idp.ts';
import { scriptSandbox } from '../shared/runtime/groups/script-sandbox.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose, type Services } from '../shared/runtime/services.ts';

const decision = z.object({ comment: z.string().max(2000).optional() });
/** Approval: `acceptPreviewChange` runs it although the preview's numbers changed (decision 0185). */
const approval = decision.extend({ acceptPreviewChange: z.boolean().optional() });
const deps = (services: CoreServices & Pick<Services, 'engines' | 'secrets'>) => ({
  ...services,
  maxExecutionMs: services.settings.maxExecutionMs,
});
const ids = (request: HttpRequest) =>
  request.pathParameters as { projectId: string; reviewId: string; environmentId?: string };

/** Review requests: list, read (also on the public API for polling), approve, reject, cancel. */
export const handler = defineRoutes(
  {
    listReviewRequests: async (request, services) => {
      const query = request.event.queryStringParameters ?? {};
      const list = await reviews.listReviews(deps(services), request.caller(), ids(request).projectId, {
        ...(query.status ? { status: query.status as ReviewStatus } : {}),
        ...(query.actionId ? { actionId: query.actionId } : {}),
      });
      return { status: 200, body: { data: list } };
    },
    getReviewRequest: async (request, services) => {
      const { projectId, reviewId } = ids(request);
      return {
        status: 200,
        body: await reviews.getReview(deps(services), request.caller(), projectId, reviewId),
      };
    },
    getPublicReviewRequest: async (request, services) => {
      const { projectId, reviewId, environmentId } = ids(request);
      const review = await reviews.getReview(deps(services), request.caller(), projectId, reviewId);
      if (review.environmentId !== environmentId) throw notFound('Review request', reviewId);
      return { status: 200, body: review };
    },
    approveReviewRequest: async (request, services) => {
      const { projectId, reviewId } = ids(request);
      const { comment, acceptPreviewChange } = request.parseBody(approval);
      const { review, run } = await reviews.approveReview(
        deps(services),
        request.caller(),
        projectId,
        reviewId,
        comment,
        acceptPreviewChange ? { acceptPreviewChange } : {},
      );
      return {
        status: 200,
        body: { reviewRequest: review, execution: run ? executionBody(run.execution, run.results) : null },
      };
    },
    rejectReviewRequest: async (request, services) => {
      const { projectId, reviewId } = ids(request);
      const { comment } = request.parseBody(decision);
      return {
        status: 200,
        body: await reviews.rejectReview(deps(services), request.caller(), projectId, reviewId, comment),
      };
    },
    cancelReviewRequest: async (request, services) => {
      const { projectId, reviewId } = ids(request);
      return {
        status: 200,
        body: await reviews.cancelReview(deps(services), request.caller(), projectId, reviewId),
      };
    },
  },
  compose(
    secretValues,
    actionEngines,
    ownIdp,
    scriptSandbox,
    notificationCenter,
    fileStorage,
    executionPayloads,
  ),
);
