/** The documented JSON shape of an execution (docs/api.md). */
import { type PayloadPart, payloadLink, payloadParts } from '../domain/execution-payloads.ts';
import type { Execution, StatementResult } from '../domain/model.ts';

/**
 * Payloads kept in the payload store are answered by link (decision 0056): `links.results` serves
 * the whole results, `links.arguments` the arguments, to whoever may read the execution.
 */
export function executionBody(execution: Execution, results?: StatementResult[]) {
  const stored = payloadParts.filter((part) => execution.payloads?.[part]?.stored);
  const links = Object.fromEntries(stored.map((part) => [part, payloadLink(execution, part)])) as Partial<
    Record<PayloadPart, string>
  >;
  const storedResults = stored.includes('results');
  return {
    id: execution.id,
    status: execution.status,
    projectId: execution.projectId,
    environmentId: execution.environmentId,
    actionId: execution.actionId,
    actionVersion: execution.actionVersion,
    executedBy: execution.principal,
    via: execution.via,
    ...(execution.preview ? { preview: true } : {}),
    ...(execution.reviewId ? { reviewId: execution.reviewId } : {}),
    ...(execution.source ? { source: execution.source } : {}),
    ...(execution.origin ? { origin: execution.origin } : {}),
    ...(execution.parentExecutionId ? { parentExecutionId: execution.parentExecutionId } : {}),
    ...(execution.nestedExecutionIds ? { nestedExecutionIds: execution.nestedExecutionIds } : {}),
    ...(execution.bridgeId ? { bridgeId: execution.bridgeId } : {}),
    startedAt: execution.startedAt,
    finishedAt: execution.finishedAt ?? null,
    durationMs: execution.durationMs ?? null,
    arguments: execution.arguments,
    ...(execution.payloads ? { payloads: execution.payloads } : {}),
    ...(execution.error ? { error: execution.error } : {}),
    // Stored results: each statement without its rows (marked truncated, so no client mistakes it
    // for the whole result); the rows are behind `links.results`.
    results: storedResults ? withoutRows(execution, results) : (results ?? execution.statements),
    ...(stored.length > 0 ? { links } : {}),
  };
}

function withoutRows(execution: Execution, results: StatementResult[] | undefined) {
  const note = `The rows (${execution.payloads?.results?.bytes ?? 0} bytes) are too large to answer here: download them from links.results.`;
  // A script's value is a result too: it is behind the link with the rows, never answered inline.
  const shown: Omit<StatementResult, 'rows'>[] =
    results ?? execution.statements.map((s) => ({ ...s, columns: [] }));
  return shown.map((result) => {
    const { value: _value, ...rest } = result as typeof result & { value?: unknown };
    return { ...rest, rows: [], truncated: true, messages: [...result.messages, note] };
  });
}
