/** The project's audit log: filters (actor, event, target, time range), pages, CSV / JSON export, chain check. */
import { type FormEvent, useState } from 'react';
import { api, saveFile } from '../../api/client.ts';
import { useWorkspace } from '../../app/workspace.tsx';
import { Button, EmptyState, ErrorBanner, ListTable, useToast } from '../../components/index.ts';
import { browserTimeZone, formatTime } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { withLocalOffset } from '../actions/parameter-values.ts';
import { AuditChainCheck } from './AuditChainCheck.tsx';
import { type AuditEntry, governancePaths } from './api.ts';

interface Filters {
  actor: string;
  event: string;
  target: string;
  from: string;
  to: string;
}

const empty: Filters = { actor: '', event: '', target: '', from: '', to: '' };

export function auditQuery(filters: Filters): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.actor.trim()) query.set('actor', filters.actor.trim());
  if (filters.event.trim()) query.set('event', filters.event.trim());
  if (filters.target.trim()) query.set('target', filters.target.trim());
  if (filters.from) query.set('from', new Date(withLocalOffset(filters.from)).toISOString());
  if (filters.to) query.set('to', new Date(withLocalOffset(filters.to)).toISOString());
  return query;
}

export function AuditLogScreen() {
  const t = useT();
  const toast = useToast();
  const { language } = useLanguage();
  const { projectId } = useWorkspace();
  const [filters, setFilters] = useState<Filters>(empty);
  const [entries, setEntries] = useState<AuditEntry[]>();
  const [cursor, setCursor] = useState<string>();
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<unknown>();

  const load = async (more: boolean) => {
    setLoading(true);
    setFailure(undefined);
    try {
      const query = auditQuery(filters);
      query.set('limit', '50');
      if (more && cursor) query.set('cursor', cursor);
      const page = await api.get<{ data: AuditEntry[]; has_more?: boolean; next_cursor?: string }>(
        `${governancePaths.auditLog(projectId)}?${query}`,
      );
      setEntries((current) => (more ? [...(current ?? []), ...page.data] : page.data));
      setCursor(page.has_more ? page.next_cursor : undefined);
    } catch (error) {
      setFailure(error);
    } finally {
      setLoading(false);
    }
  };

  const search = (event: FormEvent) => {
    event.preventDefault();
    void load(false);
  };

  const exportAs = async (format: 'csv' | 'json') => {
    try {
      const query = auditQuery(filters);
      query.set('format', format);
      const file = await api.download(
        `${governancePaths.auditExport(projectId)}?${query}`,
        format === 'csv' ? 'text/csv' : 'application/json',
        undefined,
        `audit-log.${format}`,
      );
      saveFile(file);
      toast(t('governance.audit.exported'));
    } catch (error) {
      setFailure(error);
    }
  };

  const set = (key: keyof Filters) => (event: { target: { value: string } }) =>
    setFilters((current) => ({ ...current, [key]: event.target.value }));

  return (
    <section className="screen" aria-labelledby="audit-title">
      <div className="screen-header">
        <h1 id="audit-title">{t('governance.audit.title')}</h1>
        <div className="header-spacer" />
        <Button onClick={() => void exportAs('csv')}>{t('governance.audit.exportCsv')}</Button>
        <Button onClick={() => void exportAs('json')}>{t('governance.audit.exportJson')}</Button>
      </div>
      <form className="filters" onSubmit={search} aria-label={t('governance.audit.filters')}>
        <label className="inline-field">
          <span>{t('governance.audit.actor')}</span>
          <input value={filters.actor} onChange={set('actor')} placeholder="usr_…" />
        </label>
        <label className="inline-field">
          <span>{t('governance.audit.event')}</span>
          <input value={filters.event} onChange={set('event')} placeholder="action." />
        </label>
        <label className="inline-field">
          <span>{t('governance.audit.target')}</span>
          <input value={filters.target} onChange={set('target')} />
        </label>
        <label className="inline-field">
          {/* Read in the browser's zone (withLocalOffset): the label names it (decision 0085). */}
          <span>
            {t('governance.audit.from')} ({browserTimeZone()})
          </span>
          <input type="datetime-local" value={filters.from} onChange={set('from')} />
        </label>
        <label className="inline-field">
          <span>
            {t('governance.audit.to')} ({browserTimeZone()})
          </span>
          <input type="datetime-local" value={filters.to} onChange={set('to')} />
        </label>
        <Button type="submit" variant="primary" busy={loading}>
          {t('governance.audit.search')}
        </Button>
      </form>
      <AuditChainCheck />
      <ErrorBanner error={failure} />
      {entries === undefined && !loading ? <p className="muted">{t('governance.audit.hint')}</p> : null}
      <ListTable
        label={t('governance.audit.title')}
        columns={[
          t('governance.audit.at'),
          t('governance.audit.actor'),
          t('governance.audit.event'),
          t('governance.audit.target'),
          t('governance.audit.environment'),
          t('governance.audit.outcome'),
        ]}
        items={entries}
        empty={<EmptyState title={t('governance.audit.none')} />}
        row={(entry) => (
          <tr key={entry.id}>
            <td>{formatTime(entry.at, language)}</td>
            <td>{entry.actor.email ?? entry.actor.id}</td>
            <td className="mono">{entry.event}</td>
            <td>
              <span className="muted small">{entry.target.type}</span>{' '}
              <span className="mono">{entry.target.id}</span>
            </td>
            <td>{entry.environmentId ?? ''}</td>
            <td>{t(`governance.audit.outcome.${entry.outcome}`)}</td>
          </tr>
        )}
      />
      {cursor ? (
        <Button busy={loading} onClick={() => void load(true)}>
          {t('governance.audit.more')}
        </Button>
      ) : null}
    </section>
  );
}
