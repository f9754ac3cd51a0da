/**
 * A preview (decision 0185): per statement the rows it would affect, what it returned and its
 * preview query before and after, all from a transaction that was rolled back. Shown on the action
 * screen after Preview and on a review request, for the requester's preview and the approver's.
 */
import type { Execution } from '../../api/types.ts';
import type { ColumnKind } from '../../components/DataTable.tsx';
import { type DataColumn, DataTable } from '../../components/index.ts';
import { type Translate, useT } from '../../i18n/index.tsx';

type Row = Record<string, unknown>;

export interface PreviewRowsShown {
  columns: { name: string; type: string }[];
  rows: Row[];
  truncated?: boolean;
}

export interface PreviewStatementShown {
  title: string;
  status: 'succeeded' | 'failed';
  rowsAffected: number | null;
  returned?: PreviewRowsShown;
  before?: PreviewRowsShown;
  after?: PreviewRowsShown;
  error?: { code: string; message: string };
}

/** The statements of an execution answered to `preview: true`. */
export function previewStatementsOf(execution: Execution): PreviewStatementShown[] {
  return execution.results.map((result) => ({
    title: result.title,
    status: result.status,
    rowsAffected: result.preview?.rowsAffected ?? null,
    ...(result.columns.length > 0
      ? { returned: { columns: result.columns, rows: result.rows, truncated: result.truncated ?? false } }
      : {}),
    ...(result.preview?.before ? { before: result.preview.before } : {}),
    ...(result.preview?.after ? { after: result.preview.after } : {}),
    ...(result.error ? { error: result.error } : {}),
  }));
}

/** "3 rows would be affected", or that the database does not say. */
export const affectedText = (t: Translate, count: number | null) =>
  count === null
    ? t('preview.noRowCount')
    : t(count === 1 ? 'preview.rowAffected' : 'preview.rowsAffected', { count });

/** What a screen reader hears after a preview: each statement's count. */
export const previewSummary = (t: Translate, statements: PreviewStatementShown[]) =>
  t('preview.summary', {
    summary: statements
      .map((s) => `${s.title}: ${s.error ? s.error.message : affectedText(t, s.rowsAffected)}`)
      .join('; '),
  });

export function PreviewView({
  statements,
  heading,
  headingLevel = 2,
}: {
  statements: PreviewStatementShown[];
  heading?: string;
  headingLevel?: 2 | 3;
}) {
  const t = useT();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className="results preview-results" aria-label={heading ?? t('preview.title')}>
      <div className="results-header">
        <Heading>{heading ?? t('preview.title')}</Heading>
      </div>
      <p className="notice notice-info">{t('preview.notice')}</p>
      {statements.map((statement, index) => (
        <section
          // biome-ignore lint/suspicious/noArrayIndexKey: statements are positions; titles may repeat.
          key={index}
          className="statement"
          aria-label={statement.title}
        >
          <div className="statement-header">
            <h3>{statements.length > 1 ? `${index + 1}. ${statement.title}` : statement.title}</h3>
            <span className={`status status-${statement.status}`}>{t(`status.${statement.status}`)}</span>
            <strong className="preview-count" data-testid="preview-count">
              {affectedText(t, statement.rowsAffected)}
            </strong>
          </div>
          {statement.error ? (
            <div className="notice notice-error" role="alert">
              {t('result.statementError', { message: statement.error.message })}
            </div>
          ) : null}
          <PreviewTable label={t('preview.before')} rows={statement.before} />
          <PreviewTable label={t('preview.after')} rows={statement.after} />
          <PreviewTable label={t('preview.returned')} rows={statement.returned} />
        </section>
      ))}
    </section>
  );
}

function PreviewTable({ label, rows }: { label: string; rows: PreviewRowsShown | undefined }) {
  const t = useT();
  if (!rows) return null;
  const columns: DataColumn<Row>[] = rows.columns.map((column) => ({
    key: column.name,
    label: column.name,
    type: column.type as ColumnKind,
  }));
  return (
    <div className="preview-rows">
      <h4 className="small">{label}</h4>
      {rows.truncated ? <div className="notice notice-warning">{t('preview.truncated')}</div> : null}
      <DataTable columns={columns} rows={rows.rows} label={label} maxHeight={240} />
    </div>
  );
}
