/** The draft's queries (an action, its arguments, when it runs, a transformer, server paging). */
import { Button } from '../../../components/index.ts';
import { useT } from '../../../i18n/index.tsx';
import type { ViewQuery } from '../view-api.ts';
import { useBuilderChoices } from './builder-context.ts';
import { ArgumentsField } from './EventsEditor.tsx';

export function QueriesEditor({
  queries,
  onChange,
}: {
  queries: ViewQuery[];
  onChange(q: ViewQuery[]): void;
}) {
  const t = useT();
  const choices = useBuilderChoices();
  const set = (i: number, patch: Partial<ViewQuery>) =>
    onChange(
      queries.map((q, j) => {
        if (j !== i) return q;
        const next = { ...q, ...patch } as Record<string, unknown>;
        for (const [k, v] of Object.entries(patch)) if (v === undefined || v === '') delete next[k];
        return next as ViewQuery;
      }),
    );
  const nextId = () => {
    for (let n = queries.length + 1; ; n++)
      if (!queries.some((q) => q.id === `query${n}`)) return `query${n}`;
  };
  return (
    <section className="builder-queries" aria-label={t('views.builder.queries')}>
      <h2>{t('views.builder.queries')}</h2>
      {queries.map((q, i) => (
        <fieldset
          // biome-ignore lint/suspicious/noArrayIndexKey: the id is being edited, the position is stable
          key={`${i}:${q.id}`}
          className="builder-query"
          aria-label={t('views.builder.queryNamed', { id: q.id })}
        >
          <legend>{q.id}</legend>
          <label className="builder-field">
            <span>{t('views.builder.queryId')}</span>
            <input
              aria-label={t('views.builder.queryId')}
              className="mono"
              value={q.id}
              onChange={(e) => set(i, { id: e.target.value })}
            />
          </label>
          <label className="builder-field">
            <span>{t('views.builder.action')}</span>
            <select
              aria-label={t('views.builder.action')}
              value={q.actionId}
              onChange={(e) => set(i, { actionId: e.target.value })}
            >
              <option value="">—</option>
              {choices.actions.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} ({a.id})
                </option>
              ))}
            </select>
          </label>
          <ArgumentsField value={q.arguments} onChange={(args) => set(i, { arguments: args })} />
          <label className="builder-field">
            <span>{t('views.builder.runOn')}</span>
            <select
              aria-label={t('views.builder.runOn')}
              value={q.runOn}
              onChange={(e) => set(i, { runOn: e.target.value as 'load' | 'manual' })}
            >
              <option value="load">{t('views.builder.runOn.load')}</option>
              <option value="manual">{t('views.builder.runOn.manual')}</option>
            </select>
          </label>
          <label className="builder-field">
            <span>{t('views.builder.transformer')}</span>
            <input
              aria-label={t('views.builder.transformer')}
              className="mono"
              value={q.transformer ?? ''}
              placeholder="rows.map(r => ({...r}))"
              onChange={(e) => set(i, { transformer: e.target.value || undefined })}
            />
          </label>
          <label className="builder-check">
            <input
              type="checkbox"
              checked={Boolean(q.paging)}
              onChange={(e) =>
                set(i, {
                  paging: e.target.checked
                    ? { limitParameter: 'limit', offsetParameter: 'offset', pageSize: 20 }
                    : undefined,
                })
              }
            />{' '}
            {t('views.builder.serverPaging')}
          </label>
          {q.paging ? (
            <div className="builder-row">
              {(['limitParameter', 'offsetParameter'] as const).map((key) => (
                <label key={key} className="builder-field">
                  <span>{t(`views.builder.${key}`)}</span>
                  <input
                    aria-label={t(`views.builder.${key}`)}
                    className="mono"
                    value={q.paging![key]}
                    onChange={(e) => set(i, { paging: { ...q.paging!, [key]: e.target.value } })}
                  />
                </label>
              ))}
              <label className="builder-field">
                <span>{t('views.builder.pageSize')}</span>
                <input
                  aria-label={t('views.builder.pageSize')}
                  type="number"
                  value={q.paging.pageSize}
                  onChange={(e) =>
                    set(i, { paging: { ...q.paging!, pageSize: Math.max(1, Number(e.target.value) || 1) } })
                  }
                />
              </label>
              <label className="builder-field">
                <span>{t('views.builder.totalCount')}</span>
                <input
                  aria-label={t('views.builder.totalCount')}
                  className="mono"
                  value={q.paging.totalCount ?? ''}
                  placeholder="rows[0]?.total_count"
                  onChange={(e) => {
                    const { totalCount: _, ...paging } = q.paging!;
                    set(i, { paging: e.target.value ? { ...paging, totalCount: e.target.value } : paging });
                  }}
                />
              </label>
            </div>
          ) : null}
          <Button
            variant="quiet"
            className="btn-small"
            onClick={() => onChange(queries.filter((_, j) => j !== i))}
          >
            {t('views.builder.removeQuery', { id: q.id })}
          </Button>
        </fieldset>
      ))}
      <Button
        onClick={() => onChange([...queries, { id: nextId(), actionId: '', arguments: {}, runOn: 'load' }])}
      >
        {t('views.builder.addQuery')}
      </Button>
    </section>
  );
}
