/**
 * A screen's list as a plain table: the accessible caption, one header per column, and an unnamed
 * last column for row buttons (`rowActions`, named only for screen readers). A list that has not
 * loaded shows nothing; an empty one shows `empty` (nothing without it), never a header-only table.
 */
import type { ReactNode } from 'react';
import { useT } from '../i18n/index.tsx';

export interface ListTableProps<Item> {
  /** Accessible name of the table (its visually hidden caption). */
  label: string;
  columns: readonly ReactNode[];
  /** The list, `undefined` while it loads or when it failed. */
  items: readonly Item[] | undefined;
  row: (item: Item) => ReactNode;
  rowActions?: boolean;
  empty?: ReactNode;
  className?: string;
}

export function ListTable<Item>({
  label,
  columns,
  items,
  row,
  rowActions,
  empty,
  className,
}: ListTableProps<Item>) {
  const t = useT();
  if (!items) return null;
  if (items.length === 0) return <>{empty ?? null}</>;
  // A wide table scrolls within its own box on a narrow screen; the page does not (WCAG 1.4.10).
  return (
    <div className="table-scroll">
      <table className={className ? `plain-table ${className}` : 'plain-table'}>
        <caption className="visually-hidden">{label}</caption>
        <thead>
          <tr>
            {columns.map((column, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: headers are fixed positions of the table.
              <th key={index} scope="col">
                {column}
              </th>
            ))}
            {rowActions ? (
              <th scope="col">
                <span className="visually-hidden">{t('scheduling.runs.actions')}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{items.map(row)}</tbody>
      </table>
    </div>
  );
}
