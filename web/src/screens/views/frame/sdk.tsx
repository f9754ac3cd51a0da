/**
 * The `dogu` module a code view imports (docs/views.md "Code view SDK"). It runs inside the
 * sandboxed frame: every call becomes a message to the console, which runs the action as the
 * viewer (only the actions the view declared) and answers with the result.
 */
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import type { FrameActionOutcome, NavigateTarget } from './protocol.ts';

type Row = Record<string, unknown>;

interface Bridge {
  send(message: Record<string, unknown>): void;
  call(actionId: string, args: Record<string, unknown>): Promise<FrameActionOutcome>;
}

let bridge: Bridge | undefined;
export function connect(next: Bridge): void {
  bridge = next;
}

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

/** Runs an action (declared in the view's `actionIds`) as the viewer. Rejects with `ActionError`. */
export async function runAction(
  actionId: string,
  actionArgs: Record<string, unknown> = {},
): Promise<ActionResult> {
  if (!bridge) throw new Error('The view is not connected.');
  const outcome = await bridge.call(actionId, actionArgs);
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
  bridge?.send({ type: 'navigate', to, arguments: navigateArgs });
}

/** Runs an action when the component mounts (and when `deps` change); `run` runs it again. */
export function useAction(
  actionId: string,
  actionArgs: Record<string, unknown> = {},
  options: { manual?: boolean } = {},
) {
  const [state, setState] = useState<{ loading: boolean; data?: ActionResult; error?: Error }>({
    loading: !options.manual,
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
    if (!options.manual) void run();
  }, [run, key, options.manual]);
  return { ...state, rows: state.data?.rows ?? [], run };
}

const cell = (value: unknown): string =>
  value === null || value === undefined
    ? ''
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

export function Table({
  rows,
  columns,
  onRowClick,
}: {
  rows: Row[];
  columns?: (string | { field: string; label?: string })[];
  onRowClick?: (row: Row) => void;
}) {
  const cols = (columns ?? Object.keys(rows[0] ?? {})).map((c) =>
    typeof c === 'string' ? { field: c, label: c } : c,
  );
  return (
    <table className="dg-table">
      <thead>
        <tr>
          {cols.map((c) => (
            <th key={c.field}>{c.label ?? c.field}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id of their own
            key={i}
            onClick={onRowClick ? () => onRowClick(row) : undefined}
            className={onRowClick ? 'dg-click' : undefined}
          >
            {cols.map((c) => (
              <td key={c.field}>{cell(row[c.field])}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
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
