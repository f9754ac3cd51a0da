/**
 * The `dogu` module a code view imports (docs/views.md "Code view SDK"). It runs inside the
 * sandboxed frame: every call becomes a message to the console, which runs the action as the
 * viewer (only the actions the view declared) and answers with the result.
 */
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import type { NavigateTarget } from './protocol.ts';
import { connected } from './sdk-bridge.ts';
import { text } from './sdk-texts.ts';

export { connect } from './sdk-bridge.ts';
export { Chart, type ChartPoint } from './sdk-chart.tsx';
export { useDebounced, useInterval } from './sdk-hooks.ts';
export {
  Checkbox,
  DateRange,
  type DateRangeValue,
  Input,
  MultiSelect,
  NumberInput,
  type Option,
  Select,
  Switch,
} from './sdk-inputs.tsx';
export { Drawer, Modal } from './sdk-overlays.tsx';

type Row = Record<string, unknown>;

/** The view's arguments (from the URL), as `panel.args` in visual views. */
export const args: Record<string, unknown> = {};
/** Who is looking at the view. */
export const user: { id: string; email?: string; name?: string } = { id: '' };

/** A refused or failed action: the Problem Details' `code`, `title` and `detail`. */
export class ActionError extends Error {
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  constructor(code: string, title: string, detail: string) {
    super(detail || title);
    this.name = 'ActionError';
    this.code = code;
    this.title = title;
    this.detail = detail || title;
  }
}

export interface ActionResult {
  /** The first statement's rows. */
  rows: Row[];
  /** The value (HTTP/JavaScript actions) or the rows; with several statements, one per statement. */
  result: unknown;
  /** Every statement's result, as the execution has them (`results[1].rows`). */
  results: { title: string; status: string; rows: Row[]; value?: unknown }[];
  executionId?: string;
  /** Set when the action needs a review: a request was opened instead of running it. */
  review?: { id: string };
}

/**
 * Runs an action (declared in the view's `actionIds`) as the viewer. Rejects with `ActionError`.
 * `confirm`: a question the console asks in its own dialog first (naming the action, environment
 * and arguments); Cancel rejects with code `run_declined` and nothing is sent (decision 0227).
 */
export async function runAction(
  actionId: string,
  actionArgs: Record<string, unknown> = {},
  options: { confirm?: string } = {},
): Promise<ActionResult> {
  const outcome = await connected().call(actionId, actionArgs, options.confirm);
  if (!outcome.ok) throw new ActionError(outcome.error.code, outcome.error.title, outcome.error.detail);
  if ('review' in outcome) return { rows: [], result: undefined, results: [], review: outcome.review };
  return {
    rows: outcome.rows,
    result: outcome.result,
    results: outcome.results,
    executionId: outcome.executionId,
  };
}

/** Opens another view or action of the console (with arguments) or an http(s) URL in a new tab. */
export function navigate(to: NavigateTarget, navigateArgs: Record<string, unknown> = {}): void {
  connected().send({ type: 'navigate', to, arguments: navigateArgs });
}

/**
 * A short message in the console's toast area (outside the frame, its polite live region, 4 s):
 * plain text up to 300 characters; at most 5 per 10 s are shown, the rest dropped (decision 0226).
 */
export function toast(message: string, kind: 'success' | 'info' | 'error' = 'success'): void {
  connected().send({ type: 'toast', message: String(message).slice(0, 300), kind });
}

/**
 * Offers rows as a CSV file: the console writes and downloads it (the frame may not download;
 * formula-like cells get a leading `'`). One file per 2 s; up to 10,000 rows and 100 columns.
 */
export function exportCsv(
  fileName: string,
  rows: Row[],
  columns?: (string | { field: string; label?: string })[],
): void {
  const cols = (columns ?? Object.keys(rows[0] ?? {})).map((c) => (typeof c === 'string' ? { field: c } : c));
  connected().send({ type: 'exportCsv', fileName, columns: cols, rows });
}

/**
 * Runs an action when the component mounts and when `args` change (once per change: their content
 * is compared, not their identity); `run` runs it again. `manual`: only `run` runs it. `ready: false`
 * waits (no run, `waiting: true`) until, say, a required search text is there.
 */
export function useAction(
  actionId: string,
  actionArgs: Record<string, unknown> = {},
  options: { manual?: boolean; ready?: boolean } = {},
) {
  const waiting = options.ready === false;
  const [state, setState] = useState<{ loading: boolean; data?: ActionResult; error?: Error }>({
    loading: !options.manual && !waiting,
  });
  const argsRef = useRef(actionArgs);
  argsRef.current = actionArgs;
  const key = JSON.stringify(actionArgs);
  const run = useCallback(
    async (override?: Record<string, unknown>) => {
      setState((s) => ({ ...s, loading: true, error: undefined }));
      try {
        const data = await runAction(actionId, override ?? argsRef.current);
        setState({ loading: false, data });
        return data;
      } catch (error) {
        setState({ loading: false, error: error as Error });
        return undefined;
      }
    },
    [actionId],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the arguments' content
  useEffect(() => {
    if (!options.manual && !waiting) void run();
  }, [run, key, options.manual, waiting]);
  return { ...state, waiting: waiting && !options.manual, rows: state.data?.rows ?? [], run };
}

const cell = (value: unknown): string =>
  value === null || value === undefined
    ? ''
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

type Column = string | { field: string; label?: string };

/**
 * Rows as a table. `selection`: `single` (a row click selects it) or `multiple` (a checkbox per row
 * and one for all); `rowKey` names the field that identifies a row (default: its position), and
 * `onSelectionChange` hears the selected rows. `exportCsv`: an *Export CSV* button (the file name).
 * Server paging: `page` (from 1), `pageSize`, `total` and `onPageChange` show Previous/Next.
 */
export function Table({
  rows,
  columns,
  onRowClick,
  selection,
  rowKey,
  onSelectionChange,
  exportCsv: exportName,
  page,
  pageSize,
  total,
  onPageChange,
}: {
  rows: Row[];
  columns?: Column[];
  onRowClick?: (row: Row) => void;
  selection?: 'single' | 'multiple';
  rowKey?: string;
  onSelectionChange?: (rows: Row[]) => void;
  exportCsv?: string;
  page?: number;
  pageSize?: number;
  total?: number;
  onPageChange?: (page: number) => void;
}) {
  const cols = (columns ?? Object.keys(rows[0] ?? {})).map((c) =>
    typeof c === 'string' ? { field: c, label: c } : c,
  );
  const keyOf = (row: Row, index: number) => (rowKey ? cell(row[rowKey]) : String(index));
  const [selected, setSelected] = useState<string[]>([]);
  // Rows that are gone (a new page, a refresh) are no longer selected.
  const present = new Set(rows.map(keyOf));
  const chosen = selected.filter((k) => present.has(k));
  const select = (next: string[]) => {
    setSelected(next);
    onSelectionChange?.(rows.filter((row, i) => next.includes(keyOf(row, i))));
  };
  const click = (row: Row, index: number) => {
    if (selection === 'single') select([keyOf(row, index)]);
    onRowClick?.(row);
  };
  const all = rows.length > 0 && chosen.length === rows.length;
  const pages =
    page && pageSize && total !== undefined ? Math.max(1, Math.ceil(total / pageSize)) : undefined;
  return (
    <div className="dg-table-wrap">
      <table className="dg-table">
        <thead>
          <tr>
            {selection === 'multiple' ? (
              <th className="dg-select-cell">
                <input
                  type="checkbox"
                  aria-label={text('selectAll')}
                  checked={all}
                  onChange={() => select(all ? [] : rows.map(keyOf))}
                />
              </th>
            ) : null}
            {cols.map((c) => (
              <th key={c.field}>{c.label ?? c.field}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => {
            const key = keyOf(row, i);
            const isSelected = chosen.includes(key);
            const clickable = Boolean(onRowClick) || selection === 'single';
            return (
              <tr
                // biome-ignore lint/suspicious/noArrayIndexKey: without rowKey, rows have no id of their own
                key={`${key}:${i}`}
                onClick={clickable ? () => click(row, i) : undefined}
                onKeyDown={
                  clickable
                    ? (event) => {
                        if (event.key === 'Enter') click(row, i);
                      }
                    : undefined
                }
                tabIndex={clickable ? 0 : undefined}
                // As visual tables mark theirs (multi-select rows say it with their checkbox).
                aria-current={selection === 'single' && isSelected ? 'true' : undefined}
                className={
                  `${clickable ? 'dg-click' : ''}${isSelected ? ' dg-selected' : ''}`.trim() || undefined
                }
              >
                {selection === 'multiple' ? (
                  <td className="dg-select-cell">
                    <input
                      type="checkbox"
                      aria-label={text('selectRow', { n: i + 1 })}
                      checked={isSelected}
                      onClick={(event) => event.stopPropagation()}
                      onChange={() => select(isSelected ? chosen.filter((k) => k !== key) : [...chosen, key])}
                    />
                  </td>
                ) : null}
                {cols.map((c) => (
                  <td key={c.field}>{cell(row[c.field])}</td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      {exportName || pages ? (
        <div className="dg-table-bar">
          {exportName ? (
            <button
              type="button"
              className="dg-button dg-secondary dg-small"
              onClick={() => exportCsv(exportName, rows, cols)}
            >
              {text('exportCsv')}
            </button>
          ) : null}
          {pages && page ? (
            <span className="dg-pager">
              <button
                type="button"
                className="dg-button dg-secondary dg-small"
                disabled={page <= 1}
                onClick={() => onPageChange?.(page - 1)}
              >
                {text('previous')}
              </button>
              <span>{text('pageOf', { page, pages })}</span>
              <button
                type="button"
                className="dg-button dg-secondary dg-small"
                disabled={page >= pages}
                onClick={() => onPageChange?.(page + 1)}
              >
                {text('next')}
              </button>
            </span>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

export function Detail({ value, fields }: { value: Row | undefined; fields?: string[] }) {
  if (!value) return null;
  return (
    <dl className="dg-detail">
      {(fields ?? Object.keys(value)).map((f) => (
        <div key={f}>
          <dt>{f}</dt>
          <dd>{cell(value[f])}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Button({
  children,
  onClick,
  variant,
  disabled,
}: {
  children: ReactNode;
  onClick?: () => void;
  variant?: 'primary' | 'secondary' | 'danger';
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      className={`dg-button dg-${variant ?? 'secondary'}`}
      onClick={onClick}
      disabled={disabled}
    >
      {children}
    </button>
  );
}

export function Text({ children, muted }: { children: ReactNode; muted?: boolean }) {
  return <p className={muted ? 'dg-muted' : undefined}>{children}</p>;
}

export function Stack({ children, direction }: { children: ReactNode; direction?: 'row' | 'column' }) {
  return <div className={`dg-stack dg-${direction ?? 'column'}`}>{children}</div>;
}

export function Field({
  label,
  value,
  onChange,
  type,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'number' | 'date';
}) {
  return (
    <label className="dg-field">
      <span>{label}</span>
      <input type={type ?? 'text'} value={value} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}
