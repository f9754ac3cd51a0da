/**
 * What `POST …/actions/{actionId}/executions` answers for each outcome: 202 with a link for a job
 * or a review request, the execution and its results (or one statement as CSV) for a finished run,
 * and a problem that carries the execution for a failed one.
 */
import { badRequest, DoguError } from '../domain/errors.ts';
import type { ExecutionOutcome, ReviewOutcome } from '../domain/execute-action.ts';
import { maxInlineResponseBytes } from '../domain/execution-payloads.ts';
import type { Execution } from '../domain/model.ts';
import { resultToCsv } from './csv.ts';
import type { ExecutionRequestBody } from './execution-request.ts';
import { executionBody } from './execution-response.ts';
import type { HttpResult } from './handler.ts';

interface Where {
  projectId: string;
  environmentId: string;
  actionId: string;
}

const environmentPath = ({ projectId, environmentId }: Where) =>
  `/public/v1/projects/${projectId}/environments/${environmentId}`;

/** A job was started: the client polls the execution. */
export function answerJob(execution: Execution, where: Where): HttpResult {
  const location = `${environmentPath(where)}/executions/${execution.id}`;
  return {
    status: 202,
    body: { execution: executionBody(execution), links: { self: location } },
    headers: { location },
  };
}

export function answerOutcome(
  outcome: ExecutionOutcome | ReviewOutcome,
  where: Where,
  csv: ExecutionRequestBody['csv'],
): HttpResult {
  if (outcome.kind === 'review_requested') {
    // Spec 2.1: a review-gated action runs only after approval; the client polls the request.
    const { review } = outcome;
    const location = `${environmentPath(where)}/review-requests/${review.id}`;
    return { status: 202, body: { reviewRequest: review, links: { self: location } }, headers: { location } };
  }
  const { execution, results } = outcome;
  const body = executionBody(execution, results);
  if (execution.status !== 'succeeded') {
    // A failed run is still recorded; the problem carries the execution so nothing is hidden.
    throw new DoguError(execution.error!.code as never, execution.error!.message, {
      extra: { execution: body },
    });
  }
  if (!csv) return { status: 200, body };
  const result = results[csv.statementIndex];
  if (!result)
    throw badRequest(
      `The action has ${results.length} statement(s); there is no statement ${csv.statementIndex}.`,
    );
  const text = resultToCsv(result, { escapeFormulas: csv.escapeFormulas });
  if (Buffer.byteLength(text) > maxInlineResponseBytes) {
    // Too large to answer (a Lambda response carries 6 MB): the JSON result is behind its link.
    throw new DoguError(
      'payload_too_large',
      'The CSV is too large to answer; download the result from links.results, or narrow the query.',
      { extra: { execution: body } },
    );
  }
  return {
    status: 200,
    text,
    headers: {
      'content-type': 'text/csv; charset=utf-8; header=present',
      'content-disposition': `attachment; filename="${where.actionId}-${execution.id}.csv"`,
      'x-dogu-execution-id': execution.id,
      ...(result.truncated ? { 'x-dogu-truncated': 'true' } : {}),
    },
  };
}
