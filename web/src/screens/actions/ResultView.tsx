/**
 * An execution's results: one table per statement (title, typed columns, messages such as
 * unsupported types), media columns and media responses, a raw JSON view, and downloads of the
 * result on screen (CSV of one statement, JSON of the response), made in the browser so a download
 * never runs the action again.
 */
import { useMemo, useState } from 'react';
import { saveFile } from '../../api/client.ts';
import type { Execution, StatementResult } from '../../api/types.ts';
import { Button, type DataColumn, DataTable, Tabs, useToast } from '../../components/index.ts';
import { type Translate, useLanguage, useT } from '../../i18n/index.tsx';
import { MediaCell, MediaView } from './media.tsx';
import { isObjectResult, ObjectResultExtras, objectColumn } from './object-result.tsx';
import { resultCsv } from './result-csv.ts';

type Row = Record<string, unknown>;

/** "1 row", "5 rows" (one form in Japanese). */
export const rowsText = (t: Translate, count: number) =>
  t(count === 1 ? 'result.row' : 'result.rows', { count });

export function ResultView({ execution, actionId }: { execution: Execution; actionId: string }) {
  const t = useT();
  const [view, setView] = useState('table');
  const downloadJson = () => {
    const blob = new Blob([JSON.stringify(execution, null, 2)], { type: 'application/json' });
    saveFile({ blob, fileName: `${actionId}-${execution.id}.json`, text: () => blob.text() });
  };
  return (
    <section className="results" aria-label={t('result.title')}>
      <div className="results-header">
        <h2>{t('result.title')}</h2>
        <span className={`status status-${execution.status}`}>{t(`status.${execution.status}`)}</span>
        {execution.durationMs != null ? (
          <span className="muted small">{t('result.duration', { ms: execution.durationMs })}</span>
        ) : null}
        <span className="muted small mono">{execution.id}</span>
        <div className="header-spacer" />
        <Button onClick={downloadJson}>{t('result.downloadJson')}</Button>
      </div>
      <Tabs
        label={t('result.view')}
        active={view}
        onChange={setView}
        tabs={[
          {
            id: 'table',
            label: t('result.tableView'),
            content: execution.results.map((result, index) => (
              <StatementView
                key={`${index.toString()}-${result.title ?? ''}`}
                result={result}
                index={index}
                count={execution.results.length}
                fileName={`${actionId}-${execution.id}.csv`}
              />
            )),
          },
          {
            id: 'json',
            label: t('result.jsonView'),
            content: () => <pre className="raw-json">{JSON.stringify(execution, null, 2)}</pre>,
          },
        ]}
      />
    </section>
  );
}

function StatementView({
  result,
  index,
  count,
  fileName,
}: {
  result: StatementResult;
  index: number;
  count: number;
  fileName: string;
}) {
  const t = useT();
  const toast = useToast();
  const { language } = useLanguage();
  const title = result.title || t('result.statement', { n: index + 1 });
  const objects = isObjectResult(result);
  const columns = useMemo<DataColumn<Row>[]>(
    () =>
      (result.columns ?? []).map((column) => ({
        key: column.name,
        label: (
          <span title={column.type}>
            {column.name} <span className="col-type">{t(`result.type.${column.type}`)}</span>
          </span>
        ),
        type: column.type,
        ...(column.media
          ? {
              width: column.media === 'image' ? 140 : 120,
              render: (row: Row) =>
                row[column.name] === null || row[column.name] === undefined ? (
                  <span className="dt-null">NULL</span>
                ) : (
                  <MediaCell url={String(row[column.name])} kind={column.media!} />
                ),
            }
          : {}),
        ...(objects ? objectColumn(column.name, language) : {}),
      })),
    [result.columns, objects, language, t],
  );
  const hasImages = result.columns?.some((c) => c.media === 'image');
  const rows = result.rows ?? [];

  const downloadCsv = () => {
    const blob = new Blob([resultCsv(result)], { type: 'text/csv;charset=utf-8' });
    saveFile({ blob, fileName, text: () => blob.text() });
    toast(t('result.downloaded', { name: fileName }));
  };

  return (
    <section className="statement" aria-label={title}>
      <div className="statement-header">
        <h3>{count > 1 ? `${index + 1}. ${title}` : title}</h3>
        <span className={`status status-${result.status}`}>{t(`status.${result.status}`)}</span>
        {result.rowCount !== undefined ? (
          <span className="muted small">{rowsText(t, result.rowCount)}</span>
        ) : null}
        <div className="header-spacer" />
        {result.columns ? (
          <Button onClick={downloadCsv} title={t('result.csvOfShown')}>
            {t('result.downloadCsv')}
          </Button>
        ) : null}
      </div>
      {result.error ? (
        <div className="notice notice-error" role="alert">
          {t('result.statementError', { message: result.error.message })}
        </div>
      ) : null}
      {result.truncated ? <div className="notice notice-warning">{t('result.truncated')}</div> : null}
      {result.messages?.length ? (
        <ul className="result-messages">
          {result.messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
      {result.logs?.length ? (
        <section aria-label={t('result.logs')}>
          <h4 className="small">{t('result.logs')}</h4>
          <pre className="script-logs mono">
            {result.logs.map((log, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: log lines are positions; the same text may repeat.
              <div key={i} className={`script-log-${log.level}`}>
                {log.level === 'log' ? '' : `[${log.level}] `}
                {log.message}
              </div>
            ))}
          </pre>
        </section>
      ) : null}
      {result.media ? (
        <MediaView
          kind={result.media.kind}
          src={`data:${result.media.contentType};base64,${result.media.base64}`}
          contentType={result.media.contentType}
        />
      ) : null}
      <ObjectResultExtras result={result} />
      {result.value !== undefined && (!result.columns || result.columns.length === 0) ? (
        <pre className="raw-json">{JSON.stringify(result.value, null, 2)}</pre>
      ) : null}
      {result.columns ? (
        <DataTable columns={columns} rows={rows} label={title} rowHeight={hasImages ? 72 : 30} />
      ) : null}
    </section>
  );
}
