/**
 * Starting a batch of one action: rows typed in a table (add / remove rows) or a CSV file (the
 * template is the action's parameter names). Refused rows come back as one message per bad cell,
 * shown at the cell (form) or listed by file row (CSV).
 */
import { type FormEvent, useState } from 'react';
import { effectOf } from '../../../../shared/domain/action-effect.ts';
import { ApiError, api, saveFile } from '../../api/client.ts';
import { Link, navigate } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import { Button, ErrorBanner, Field, Tabs, useAsync } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { ConfirmRunDialog, needsConfirmation } from '../actions/ConfirmRunDialog.tsx';
import { loadAction } from '../actions/load-action.ts';
import { type BatchDetail, schedulingPaths } from './api.ts';
import { fillable, type RowCells, rowErrorOf, rowsOf } from './batch-rows.ts';

export function BatchScreen({ params }: { params: Record<string, string> }) {
  const t = useT();
  const workspace = useWorkspace();
  const { projectId, environmentId } = workspace;
  const actionId = params.actionId!;
  const loaded = useAsync(
    () => loadAction(projectId, environmentId, actionId),
    [projectId, environmentId, actionId],
  );
  const [tab, setTab] = useState('form');
  const [cells, setCells] = useState<RowCells[]>([{}]);
  const [file, setFile] = useState<File>();
  const [concurrency, setConcurrency] = useState('4');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>();

  const parameters = loaded.data ? fillable(loaded.data.action.parameters) : [];
  const cellErrors = new Map<string, string>();
  const fileErrors: string[] = [];
  if (failure instanceof ApiError) {
    for (const e of failure.errors) {
      const at = rowErrorOf(e.pointer);
      if (at && tab === 'form') cellErrors.set(`${at.row}/${at.name}`, e.detail);
      else if (at)
        fileErrors.push(t('scheduling.batch.fileRowError', { row: at.row, name: at.name, detail: e.detail }));
      else fileErrors.push(e.detail);
    }
  }

  const started = (answer: { batch: BatchDetail['batch'] }) =>
    navigate(workspace.href(`/batches/${encodeURIComponent(answer.batch.id)}`));

  /** A batch of a data-changing action starts only after the person confirmed it (server-checked). */
  const [confirming, setConfirming] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!loaded.data) return;
    if (effectOf(loaded.data.action as never) === 'changes') setConfirming(true);
    else await start(false);
  };

  const start = async (confirmed: boolean) => {
    if (!loaded.data) return;
    setBusy(true);
    setFailure(undefined);
    try {
      const query = new URLSearchParams({ via: 'console', ...(confirmed ? { confirm: 'true' } : {}) });
      const path = `${schedulingPaths.batches(projectId, environmentId, actionId)}?${query}`;
      const level = Number(concurrency) || undefined;
      if (tab === 'csv') {
        if (!file) throw new Error(t('scheduling.batch.chooseFile'));
        started(
          await api.upload<{ batch: BatchDetail['batch'] }>(
            `${path}${level ? `&concurrency=${level}` : ''}`,
            file,
            'text/csv',
          ),
        );
      } else {
        started(
          await api.post<{ batch: BatchDetail['batch'] }>(path, {
            rows: rowsOf(loaded.data.action.parameters, cells),
            ...(level ? { concurrency: level } : {}),
          }),
        );
      }
    } catch (error) {
      if (needsConfirmation(error) && !confirmed) setConfirming(true);
      else setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  const downloadTemplate = async () => {
    try {
      saveFile(
        await api.download(
          schedulingPaths.batchTemplate(projectId, environmentId, actionId),
          'text/csv',
          undefined,
          `${actionId}-template.csv`,
        ),
      );
    } catch (error) {
      setFailure(error);
    }
  };

  const setCell = (row: number, name: string, value: string) =>
    setCells((current) =>
      current.map((cellsOfRow, i) => (i === row ? { ...cellsOfRow, [name]: value } : cellsOfRow)),
    );

  return (
    <section className="screen" aria-labelledby="batch-title">
      <Link href={workspace.href(`/actions/${encodeURIComponent(actionId)}`)} className="back-link">
        ← {loaded.data?.action.name ?? actionId}
      </Link>
      <div className="screen-header">
        <h1 id="batch-title">
          {t('scheduling.batch.title', { name: loaded.data?.action.name ?? actionId })}
        </h1>
        <div className="header-spacer" />
        <Button onClick={() => void downloadTemplate()}>{t('scheduling.batch.template')}</Button>
      </div>
      <ErrorBanner error={loaded.error} />
      {failure && !(failure instanceof ApiError && failure.errors.length) ? (
        failure instanceof ApiError ? (
          <ErrorBanner error={failure} />
        ) : (
          <div className="error-banner" role="alert">
            {failure instanceof Error ? failure.message : String(failure)}
          </div>
        )
      ) : null}
      {fileErrors.length ? (
        <div className="error-banner" role="alert">
          <strong>{failure instanceof ApiError ? failure.title : ''}</strong>
          <ul className="error-banner-list">
            {fileErrors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <form onSubmit={submit} noValidate aria-label={t('scheduling.batch.title', { name: actionId })}>
        <Tabs
          label={t('scheduling.batch.input')}
          active={tab}
          onChange={setTab}
          tabs={[
            {
              id: 'form',
              label: t('scheduling.batch.formRows'),
              content: (
                <div className="table-scroll">
                  <table className="plain-table rows-editor">
                    <caption className="visually-hidden">{t('scheduling.batch.formRows')}</caption>
                    <thead>
                      <tr>
                        <th scope="col">{t('scheduling.batch.row')}</th>
                        {parameters.map((parameter) => (
                          <th key={parameter.name} scope="col">
                            {parameter.label ?? parameter.name}
                            {parameter.required ? <span className="field-required"> *</span> : null}
                            <span className="param-name">{parameter.name}</span>
                          </th>
                        ))}
                        <th scope="col">
                          <span className="visually-hidden">{t('scheduling.runs.actions')}</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {cells.map((row, index) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions; the server names them by index.
                        <tr key={index}>
                          <td>{index + 1}</td>
                          {parameters.map((parameter) => {
                            const error = cellErrors.get(`${index}/${parameter.name}`);
                            return (
                              <td key={parameter.name}>
                                <input
                                  aria-label={t('scheduling.batch.cellLabel', {
                                    row: index + 1,
                                    name: parameter.label ?? parameter.name,
                                  })}
                                  aria-invalid={error ? true : undefined}
                                  title={error}
                                  value={row[parameter.name] ?? ''}
                                  onChange={(event) => setCell(index, parameter.name, event.target.value)}
                                />
                                {error ? <div className="field-error">{error}</div> : null}
                              </td>
                            );
                          })}
                          <td>
                            <Button
                              variant="quiet"
                              className="btn-small"
                              disabled={cells.length === 1}
                              aria-label={t('scheduling.batch.removeRow', { n: index + 1 })}
                              onClick={() => setCells((current) => current.filter((_, i) => i !== index))}
                            >
                              ×
                            </Button>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                  <Button className="btn-small" onClick={() => setCells((current) => [...current, {}])}>
                    {t('scheduling.batch.addRow')}
                  </Button>
                </div>
              ),
            },
            {
              id: 'csv',
              label: t('scheduling.batch.csvUpload'),
              content: (
                <Field label={t('scheduling.batch.csvFile')} hint={t('scheduling.batch.csvHint')}>
                  <input
                    type="file"
                    accept=".csv,text/csv"
                    onChange={(event) => setFile(event.target.files?.[0] ?? undefined)}
                  />
                </Field>
              ),
            },
          ]}
        />
        <div className="form-actions">
          <label className="inline-field">
            <span>{t('scheduling.batch.concurrency')}</span>
            <input
              type="number"
              min={1}
              max={16}
              value={concurrency}
              onChange={(event) => setConcurrency(event.target.value)}
            />
          </label>
          <Button type="submit" variant="primary" busy={busy} disabled={!loaded.data}>
            {t('scheduling.batch.start')}
          </Button>
        </div>
      </form>
      <ConfirmRunDialog
        subject={
          confirming && loaded.data
            ? {
                actionName: loaded.data.action.name,
                environmentName: workspace.environment?.name ?? environmentId,
                arguments: {
                  rows:
                    tab === 'csv' ? (file?.name ?? '') : rowsOf(loaded.data.action.parameters, cells).length,
                },
              }
            : undefined
        }
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void start(true);
        }}
      />
    </section>
  );
}
