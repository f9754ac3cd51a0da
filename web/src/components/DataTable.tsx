/**
 * A virtualised table: only the rows in view (plus a few) are in the DOM, so 100,000 rows scroll
 * as smoothly as 10. Fixed row height, typed columns (numbers right-aligned, NULL marked, JSON as
 * text), sticky header, horizontal scroll for wide results. A real <table> with aria-rowcount and
 * row indexes keeps it readable by screen readers; the scroll area is focusable so the keyboard scrolls it.
 */
import { type ReactNode, type UIEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useT } from '../i18n/index.tsx';

export type ColumnKind = 'string' | 'number' | 'boolean' | 'bigint' | 'json';

export interface DataColumn<Row> {
  key: string;
  label: ReactNode;
  type?: ColumnKind;
  /** Pixels; measured from the header and the first rows when absent. */
  width?: number;
  /** The cell's value; `row[key]` when absent. */
  value?: (row: Row) => unknown;
  /** Custom content (links, media, buttons); the value's text when absent. */
  render?: (row: Row, index: number) => ReactNode;
}

export interface DataTableProps<Row> {
  columns: DataColumn<Row>[];
  rows: readonly Row[];
  /** Accessible name of the table. */
  label: string;
  rowHeight?: number;
  /** Largest height of the scroll area in pixels; shorter results take less. */
  maxHeight?: number;
  rowKey?: (row: Row, index: number) => string | number;
  empty?: ReactNode;
  /** The scroll position goes back to the top when this changes (default: the rows), not on every refresh. */
  resetScrollOn?: unknown;
}

const overscan = 8;
const headerHeight = 32;

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function defaultWidth<Row>(column: DataColumn<Row>, rows: readonly Row[]): number {
  if (column.width) return column.width;
  // A non-text header (name plus type badge) is measured by its key and type.
  const header = typeof column.label === 'string' ? column.label : `${column.key} ${column.type ?? ''}`;
  let longest = header.length;
  for (const row of rows.slice(0, 50)) {
    const value = column.value ? column.value(row) : (row as Record<string, unknown>)[column.key];
    longest = Math.max(longest, cellText(value).length);
  }
  return Math.min(360, Math.max(72, Math.round(longest * 7.5) + 28));
}

export function DataTable<Row>(props: DataTableProps<Row>) {
  const { columns, rows, label, rowHeight = 30, maxHeight = 440, rowKey, empty } = props;
  const scrollIdentity = 'resetScrollOn' in props ? props.resetScrollOn : rows;
  const t = useT();
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const bodyHeight = rows.length * rowHeight;
  const viewportHeight = Math.min(maxHeight, headerHeight + bodyHeight + 2);
  const [measuredHeight, setMeasuredHeight] = useState(viewportHeight);

  useEffect(() => {
    const element = scroller.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (element.clientHeight > 0) setMeasuredHeight(element.clientHeight);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // A new result starts at the top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the identity is the trigger, not an input.
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
    setScrollTop(0);
  }, [scrollIdentity]);

  const widths = useMemo(() => columns.map((column) => defaultWidth(column, rows)), [columns, rows]);
  // The last column takes what is left, so narrow results still fill the width.
  const template = widths
    .map((w, i) => (i === widths.length - 1 ? `minmax(${w}px, 1fr)` : `${w}px`))
    .join(' ');
  const totalWidth = widths.reduce((sum, w) => sum + w, 0);

  const visibleCount = Math.ceil((measuredHeight || viewportHeight) / rowHeight);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(rows.length, Math.floor(scrollTop / rowHeight) + visibleCount + overscan);

  const onScroll = useCallback((event: UIEvent<HTMLDivElement>) => {
    setScrollTop(event.currentTarget.scrollTop);
  }, []);

  if (rows.length === 0) {
    return <div className="data-table-empty">{empty ?? t('table.noRows')}</div>;
  }

  const visible: ReactNode[] = [];
  for (let index = first; index < last; index++) {
    const row = rows[index]!;
    visible.push(
      <tr
        key={rowKey ? rowKey(row, index) : index}
        aria-rowindex={index + 2}
        className={`dt-row${index % 2 ? ' dt-row-odd' : ''}`}
        style={{ top: index * rowHeight, height: rowHeight, gridTemplateColumns: template }}
      >
        {columns.map((column) => {
          const value = column.value ? column.value(row) : (row as Record<string, unknown>)[column.key];
          const isNull = value === null || value === undefined;
          return (
            <td
              key={column.key}
              className={`dt-cell dt-${column.type ?? 'string'}${isNull && !column.render ? ' dt-null' : ''}`}
              title={column.render || isNull ? undefined : cellText(value)}
            >
              {column.render ? column.render(row, index) : isNull ? 'NULL' : cellText(value)}
            </td>
          );
        })}
      </tr>,
    );
  }

  return (
    <div
      ref={scroller}
      className="data-table"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the scroll area must be reachable to scroll by keyboard.
      tabIndex={0}
      style={{ height: viewportHeight }}
      onScroll={onScroll}
    >
      <table
        aria-label={label}
        aria-rowcount={rows.length + 1}
        aria-colcount={columns.length}
        style={{ width: totalWidth, minWidth: '100%' }}
      >
        <thead className="dt-head">
          <tr
            aria-rowindex={1}
            className="dt-head-row"
            style={{ gridTemplateColumns: template, height: headerHeight }}
          >
            {columns.map((column) => (
              <th key={column.key} scope="col" className={`dt-cell dt-${column.type ?? 'string'}`}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="dt-body" style={{ height: bodyHeight }}>
          {visible}
        </tbody>
      </table>
    </div>
  );
}
