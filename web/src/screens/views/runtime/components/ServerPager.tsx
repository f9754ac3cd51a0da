/**
 * Previous/Next for a query that pages on the server. With the query's `paging.totalCount` (decision
 * 0221) it says "Rows 21–40 of 134" and has First and Last; without it, only "Page n" (the end is
 * known when a page comes back short).
 */
import { Button } from '../../../../components/index.ts';
import { useT } from '../../../../i18n/index.tsx';
import type { ViewQuery } from '../../view-api.ts';
import { type QueryState, useViewRuntime } from '../runtime.tsx';
import { problemText } from '../ViewProblem.tsx';

type Paging = NonNullable<ViewQuery['paging']>;

/** The total the expression gives, or undefined while it gives no whole number ≥ 0 (`'134'` from SQL counts). */
export function totalOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

export function ServerPager({
  query,
  paging,
  state,
}: {
  query: ViewQuery;
  paging: Paging;
  state: QueryState | undefined;
}) {
  const t = useT();
  const runtime = useViewRuntime();
  // What the table shows: while the next page loads, the rows (and so the text) are the last page's.
  const page = state?.rowsPage ?? state?.page ?? 0;
  const rows = state?.rows ?? [];
  const loading = state?.status === 'loading';
  let total: number | undefined;
  let problem: string | undefined;
  // While the next page loads, the shown page and its total stay.
  if (paging.totalCount && (state?.status === 'done' || state?.status === 'loading')) {
    try {
      total = totalOf(runtime.bind(paging.totalCount, { rows, result: state.result }));
    } catch (error) {
      problem = problemText(t, error);
    }
  }
  const lastPage = total === undefined ? undefined : Math.max(0, Math.ceil(total / paging.pageSize) - 1);
  const atEnd = lastPage === undefined ? rows.length < paging.pageSize : page >= lastPage;
  const go = (to: number) => void runtime.runQuery(query.id, to);
  const from = page * paging.pageSize + 1;
  return (
    <>
      {lastPage !== undefined ? (
        <Button
          aria-label={t('views.table.firstPage')}
          disabled={page === 0 || loading}
          onClick={() => go(0)}
        >
          {t('views.table.first')}
        </Button>
      ) : null}
      <Button disabled={page === 0 || loading} onClick={() => go(page - 1)}>
        {t('views.table.previous')}
      </Button>
      <span className="muted small" aria-live="polite">
        {total === undefined
          ? t('views.table.page', { page: page + 1 })
          : total === 0
            ? t('views.table.noRows')
            : rows.length === 0
              ? t('views.table.noRowsOf', { total })
              : t('views.table.rowsOf', { from, to: from + rows.length - 1, total })}
      </span>
      <Button disabled={atEnd || loading} onClick={() => go(page + 1)}>
        {t('views.table.next')}
      </Button>
      {lastPage !== undefined ? (
        <Button
          aria-label={t('views.table.lastPage', { page: lastPage + 1 })}
          disabled={atEnd || loading}
          onClick={() => go(lastPage)}
        >
          {t('views.table.last')}
        </Button>
      ) : null}
      {problem ? (
        <p className="view-problem error-banner" role="alert">
          {t('views.table.totalProblem', { detail: problem })}
        </p>
      ) : null}
    </>
  );
}
