/**
 * The table component: rows of a query (or an expression), sort by a header, filter by text,
 * pages (client-side, or through the query's limit/offset parameters when it pages on the server),
 * row click and a row menu whose events see `row`. A column whose field is in no row says so.
 * A click (or Enter) on a row selects it: `components.<id>.value` is that row, with or without
 * "On row click" events (issue 29: the value stayed undefined until an event was wired).
 * With `multiSelect`, checkboxes on the rows make `components.<id>.selectedRows`; with `csvExport`,
 * a button downloads the shown rows as CSV (table-csv.ts). A column with `edit` is edited in its
 * cell and saved through an action (EditableCell.tsx); a server-paged query with a total count
 * shows "rows X–Y of N" (ServerPager.tsx).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, closeMenuOf, DisclosureMenu } from '../../../../components/index.ts';
import { useT } from '../../../../i18n/index.tsx';
import type { ViewComponent, ViewTableColumn } from '../../view-api.ts';
import { EventOutcomeView } from '../EventOutcomeView.tsx';
import { QueryWaiting } from '../QueryWaiting.tsx';
import { ViewReviewNotice } from '../ReviewNotice.tsx';
import { type EventOutcome, useViewRuntime } from '../runtime.tsx';
import { ViewProblem } from '../ViewProblem.tsx';
import { EditableCell } from './EditableCell.tsx';
import { fieldOf, formatValue, hasField, plainText } from './format.tsx';
import { ServerPager } from './ServerPager.tsx';
import { downloadCsv, tableCsv } from './table-csv.ts';

type Table = Extract<ViewComponent, { type: 'table' }>;
type Row = Record<string, unknown>;

export function TableComponent({ component }: { component: Table }) {
  const t = useT();
  const runtime = useViewRuntime();
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<{ field: string; descending: boolean }>();
  const [page, setPage] = useState(0);
  const [outcome, setOutcome] = useState<EventOutcome>();
  const [busy, setBusy] = useState(false);

  const query = component.query
    ? runtime.definition.queries.find((q) => q.id === component.query)
    : undefined;
  const state = component.query ? runtime.queries[component.query] : undefined;
  const rows: Row[] = useMemo(() => {
    if (component.value) {
      const value = runtime.bind(component.value);
      if (!Array.isArray(value)) return value && typeof value === 'object' ? [value as Row] : [];
      return value as Row[];
    }
    return state?.rows ?? [];
  }, [component.value, runtime, state]);

  const columns: ViewTableColumn[] = component.columns?.length
    ? component.columns
    : Object.keys(rows[0] ?? {}).map((field) => ({ field, label: field, format: 'auto' as const }));
  const missing = rows.length > 0 ? columns.filter((c) => !hasField(rows, c.field)).map((c) => c.field) : [];

  const shown = useMemo(() => {
    let out = rows;
    const needle = filter.trim().toLowerCase();
    if (needle) {
      out = out.filter((row) =>
        columns.some((c) => plainText(fieldOf(row, c.field)).toLowerCase().includes(needle)),
      );
    }
    if (sort) {
      out = [...out].sort((a, b) => {
        const x = fieldOf(a, sort.field);
        const y = fieldOf(b, sort.field);
        const order =
          typeof x === 'number' && typeof y === 'number'
            ? x - y
            : plainText(x).localeCompare(plainText(y), undefined, { numeric: true });
        return sort.descending ? -order : order;
      });
    }
    return out;
  }, [rows, filter, sort, columns]);

  const serverPaging = query?.paging;
  const pageSize = serverPaging ? shown.length || 1 : (component.pageSize ?? 20);
  const pageCount = serverPaging ? 1 : Math.max(1, Math.ceil(shown.length / pageSize));
  const currentPage = Math.min(page, pageCount - 1);
  const pageRows = serverPaging ? shown : shown.slice(currentPage * pageSize, (currentPage + 1) * pageSize);

  const selected = runtime.values[component.id];
  // Checked rows by their index in the result: rows from a `value` expression are new objects at
  // every evaluation, so identity would not last a render.
  const [checked, setChecked] = useState<number[]>([]);
  const selectedRows = useMemo(() => checked.flatMap((i) => (rows[i] ? [rows[i]] : [])), [rows, checked]);
  const { setComponentState } = runtime;
  const pushed = useRef<string>(undefined);
  useEffect(() => {
    if (!component.multiSelect) return;
    // Only a real change is pushed: the runtime renders again after each push.
    const key = JSON.stringify(selectedRows);
    if (key === pushed.current) return;
    pushed.current = key;
    setComponentState(component.id, { selectedRows });
  }, [component.multiSelect, component.id, selectedRows, setComponentState]);
  const indexOf = (row: Row) => rows.indexOf(row);
  const toggle = (row: Row, on: boolean) => {
    const i = indexOf(row);
    setChecked((list) => [...list.filter((x) => x !== i), ...(on ? [i] : [])].sort((a, b) => a - b));
  };
  const pageIndexes = pageRows.map(indexOf);
  const allOnPage = pageIndexes.length > 0 && pageIndexes.every((i) => checked.includes(i));
  const exportCsv = async () => {
    downloadCsv(component.id, await tableCsv(columns, shown));
  };
  const run = async (events: { type: string }[] | undefined, row: Row) => {
    runtime.setValue(component.id, row);
    if (!events?.length) return;
    setBusy(true);
    setOutcome(undefined);
    setOutcome(await runtime.runEvents(events as never, { row }));
    setBusy(false);
  };

  if (state?.status === 'failed') return <ViewProblem error={state.error} where={component.id} />;
  if (state?.status === 'review' && state.review) return <ViewReviewNotice review={state.review} />;
  if (state?.status === 'waiting' && component.query)
    return <QueryWaiting queryId={component.query} state={state} />;
  const label = component.title ?? component.id;
  return (
    <div className="view-table-wrap" aria-busy={state?.status === 'loading' || busy || undefined}>
      {component.csvExport || component.multiSelect ? (
        <div className="view-table-tools">
          {component.multiSelect ? (
            <span className="muted small" aria-live="polite">
              {t('views.table.selectedCount', { count: selectedRows.length })}
            </span>
          ) : null}
          {component.csvExport ? (
            <Button className="btn-small" disabled={shown.length === 0} onClick={() => void exportCsv()}>
              {t('views.table.exportCsv')}
            </Button>
          ) : null}
        </div>
      ) : null}
      {component.filterable ? (
        <input
          type="search"
          className="view-table-filter"
          placeholder={t('views.table.filter')}
          aria-label={t('views.table.filterOf', { table: label })}
          value={filter}
          onChange={(event) => {
            setFilter(event.target.value);
            setPage(0);
          }}
        />
      ) : null}
      {missing.length > 0 ? (
        <div className="view-problem error-banner" role="alert">
          <div className="error-banner-text">
            {t('views.error.unknownField', { fields: missing.join(', ') })}
          </div>
        </div>
      ) : null}
      <div className="view-table-scroll">
        <table className="view-table" aria-label={label}>
          <thead>
            <tr>
              {component.multiSelect ? (
                <th scope="col" className="view-row-check">
                  <input
                    type="checkbox"
                    aria-label={t('views.table.selectPage')}
                    checked={allOnPage}
                    onChange={(event) => {
                      const on = event.target.checked;
                      setChecked((list) =>
                        [...list.filter((i) => !pageIndexes.includes(i)), ...(on ? pageIndexes : [])].sort(
                          (a, b) => a - b,
                        ),
                      );
                    }}
                  />
                </th>
              ) : null}
              {columns.map((column) => {
                const active = sort?.field === column.field;
                return (
                  <th
                    key={column.field}
                    scope="col"
                    aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : undefined}
                  >
                    {component.sortable ? (
                      <button
                        type="button"
                        className="view-sort"
                        onClick={() =>
                          setSort(
                            active && !sort.descending
                              ? { field: column.field, descending: true }
                              : active
                                ? undefined
                                : { field: column.field, descending: false },
                          )
                        }
                      >
                        {column.label ?? column.field}
                        <span aria-hidden="true">{active ? (sort.descending ? ' ▼' : ' ▲') : ''}</span>
                      </button>
                    ) : (
                      (column.label ?? column.field)
                    )}
                  </th>
                );
              })}
              {component.rowMenu?.length ? (
                <th scope="col">
                  <span className="visually-hidden">{t('views.table.menu')}</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {pageRows.map((row, index) => (
              <tr
                // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id of their own
                key={index}
                className={`view-row-clickable${row === selected ? ' view-row-selected' : ''}`}
                tabIndex={0}
                aria-current={row === selected ? 'true' : undefined}
                onClick={(event) => {
                  // The row menu's, the checkbox's and an edited cell's own clicks and keys are not the row's.
                  if (notTheRows(event.target)) return;
                  void run(component.rowClick, row);
                }}
                onKeyDown={(event) => {
                  if (notTheRows(event.target)) return;
                  if (event.key === 'Enter') void run(component.rowClick, row);
                }}
              >
                {component.multiSelect ? (
                  <td className="view-row-check">
                    <input
                      type="checkbox"
                      aria-label={t('views.table.selectRow', {
                        row: currentPage * (serverPaging ? 0 : pageSize) + index + 1,
                      })}
                      checked={checked.includes(indexOf(row))}
                      onChange={(event) => toggle(row, event.target.checked)}
                    />
                  </td>
                ) : null}
                {columns.map((column) => (
                  <td key={column.field}>
                    {column.edit ? (
                      <EditableCell
                        column={{ ...column, edit: column.edit }}
                        row={row}
                        value={fieldOf(row, column.field)}
                        queryId={component.query}
                      />
                    ) : (
                      formatValue(fieldOf(row, column.field), column.format)
                    )}
                  </td>
                ))}
                {component.rowMenu?.length ? (
                  <td className="view-row-menu-cell">
                    <DisclosureMenu
                      className="view-row-menu"
                      panelClassName="view-row-menu-items"
                      summary="⋯"
                      label={t('views.table.menu')}
                      menu
                    >
                      {component.rowMenu.map((item) => (
                        <button
                          key={item.label}
                          type="button"
                          role="menuitem"
                          className="btn btn-quiet btn-small"
                          onClick={(event) => {
                            closeMenuOf(event.currentTarget);
                            void run(item.events, row);
                          }}
                        >
                          {item.label}
                        </button>
                      ))}
                    </DisclosureMenu>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {state?.status === 'loading' ? <p className="muted small">{t('common.loading')}</p> : null}
        {state?.status !== 'loading' && pageRows.length === 0 ? (
          <p className="muted small view-empty">{t('views.table.empty')}</p>
        ) : null}
      </div>
      <div className="view-table-pager">
        {serverPaging && query ? (
          <ServerPager query={query} paging={serverPaging} state={state} />
        ) : pageCount > 1 ? (
          <>
            <Button disabled={currentPage === 0} onClick={() => setPage(currentPage - 1)}>
              {t('views.table.previous')}
            </Button>
            <span className="muted small">
              {t('views.table.pageOf', { page: currentPage + 1, pages: pageCount })}
            </span>
            <Button disabled={currentPage >= pageCount - 1} onClick={() => setPage(currentPage + 1)}>
              {t('views.table.next')}
            </Button>
          </>
        ) : null}
      </div>
      <EventOutcomeView outcome={outcome} />
    </div>
  );
}

const notTheRows = (target: EventTarget) =>
  target instanceof Element &&
  target.closest('.view-row-check, .view-row-menu, .view-cell-edit, .view-cell-editor') !== null;
