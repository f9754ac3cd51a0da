/**
 * The preview a review request carries (decision 0185): taken when the request is made, so the
 * approver sees what the write would do, and taken again on approval; when the numbers differ the
 * approval stops and says how, until the approver accepts the new numbers.
 */
import { DoguError } from './errors.ts';
import type { Execution, PreviewRows, StatementResult } from './model.ts';

export interface ReviewPreview {
  takenAt: string;
  /** The preview's own execution record (recorded as a preview, not a run). */
  executionId?: string;
  statements?: ReviewPreviewStatement[];
  /** Why no preview could be taken (a refusal names the statement, or the run failed). */
  error?: { code: string; message: string };
  /** The rows were too many to keep on the request: only the counts are. */
  rowsLeftOut?: boolean;
}

export interface ReviewPreviewStatement {
  title: string;
  status: StatementResult['status'];
  rowsAffected: number | null;
  returned?: PreviewRows;
  before?: PreviewRows;
  after?: PreviewRows;
  error?: { code: string; message: string };
}

/** A review request is one store item: its preview's rows stay well inside it. */
export const maxReviewPreviewBytes = 32 * 1024;

/** Runs `preview` and keeps what a reviewer needs of it; a failure is kept as the preview's error. */
export async function takeReviewPreview(
  now: () => Date,
  preview: () => Promise<{ execution: Execution; results: StatementResult[] }>,
): Promise<ReviewPreview> {
  const takenAt = now().toISOString();
  try {
    const { execution, results } = await preview();
    const statements = results.map(summary);
    const kept: ReviewPreview = { takenAt, executionId: execution.id, statements };
    if (Buffer.byteLength(JSON.stringify(kept)) <= maxReviewPreviewBytes) return kept;
    return {
      takenAt,
      executionId: execution.id,
      statements: statements.map(({ returned: _r, before: _b, after: _a, ...counts }) => counts),
      rowsLeftOut: true,
    };
  } catch (error) {
    return {
      takenAt,
      error:
        error instanceof DoguError
          ? { code: error.code, message: error.message }
          : { code: 'internal_error', message: 'The preview failed unexpectedly.' },
    };
  }
}

function summary(result: StatementResult): ReviewPreviewStatement {
  const preview = result.preview;
  return {
    title: result.title,
    status: result.status,
    rowsAffected: preview?.rowsAffected ?? null,
    ...(result.columns.length > 0
      ? {
          returned: {
            columns: result.columns,
            rows: result.rows,
            ...(result.truncated ? { truncated: true } : {}),
          },
        }
      : {}),
    ...(preview?.before ? { before: preview.before } : {}),
    ...(preview?.after ? { after: preview.after } : {}),
    ...(result.error ? { error: result.error } : {}),
  };
}

/**
 * How the preview at approval differs from the one at request time, in words (undefined: the same
 * statements, statuses and rows affected). Rows' contents may differ (timestamps); counts may not.
 */
export function previewChange(atRequest: ReviewPreview, atApproval: ReviewPreview): string | undefined {
  const before = atRequest.statements ?? [];
  if (!atApproval.statements)
    return `the preview could not be taken again (${atApproval.error?.message ?? 'unknown error'})`;
  const after = atApproval.statements;
  const changes: string[] = [];
  const count = Math.max(before.length, after.length);
  for (let i = 0; i < count; i++) {
    const then = before[i];
    const now = after[i];
    const title = now?.title ?? then?.title ?? `statement ${i + 1}`;
    if (then?.status !== now?.status)
      changes.push(`'${title}' ${then?.status ?? 'not run'} → ${now?.status ?? 'not run'}`);
    else if (then?.rowsAffected !== now?.rowsAffected)
      changes.push(`'${title}' ${rows(then?.rowsAffected)} → ${rows(now?.rowsAffected)}`);
  }
  return changes.length > 0 ? changes.join('; ') : undefined;
}

const rows = (n: number | null | undefined) =>
  n === null || n === undefined ? 'no row count' : `${n} ${n === 1 ? 'row' : 'rows'}`;
