/** The documented JSON shape of an execution (docs/api.md). */
import type { Execution, StatementResult } from '../domain/model.ts';

export function executionBody(execution: Execution, results?: StatementResult[]) {
  return {
    id: execution.id,
    status: execution.status,
    projectId: execution.projectId,
    environmentId: execution.environmentId,
    actionId: execution.actionId,
    actionVersion: execution.actionVersion,
    executedBy: execution.principal,
    via: execution.via,
    ...(execution.reviewId ? { reviewId: execution.reviewId } : {}),
    ...(execution.source ? { source: execution.source } : {}),
    ...(execution.origin ? { origin: execution.origin } : {}),
    ...(execution.parentExecutionId ? { parentExecutionId: execution.parentExecutionId } : {}),
    ...(execution.nestedExecutionIds ? { nestedExecutionIds: execution.nestedExecutionIds } : {}),
    startedAt: execution.startedAt,
    finishedAt: execution.finishedAt ?? null,
    durationMs: execution.durationMs ?? null,
    arguments: execution.arguments,
    ...(execution.error ? { error: execution.error } : {}),
    results: results ?? execution.statements,
  };
}
