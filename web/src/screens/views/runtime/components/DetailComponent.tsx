/** Key-value detail of one record: the first row of a query, or an expression's object. */
import { useT } from '../../../../i18n/index.tsx';
import type { ViewComponent } from '../../view-api.ts';
import { QueryWaiting } from '../QueryWaiting.tsx';
import { ViewReviewNotice } from '../ReviewNotice.tsx';
import { useViewRuntime } from '../runtime.tsx';
import { ViewProblem } from '../ViewProblem.tsx';
import { fieldOf, formatValue } from './format.tsx';

type Detail = Extract<ViewComponent, { type: 'detail' }>;

export function DetailComponent({ component }: { component: Detail }) {
  const t = useT();
  const runtime = useViewRuntime();
  const state = component.query ? runtime.queries[component.query] : undefined;
  if (state?.status === 'failed') return <ViewProblem error={state.error} where={component.id} />;
  if (state?.status === 'review' && state.review) return <ViewReviewNotice review={state.review} />;
  if (state?.status === 'waiting' && component.query)
    return <QueryWaiting queryId={component.query} state={state} />;
  if (state?.status === 'loading') return <p className="muted small">{t('common.loading')}</p>;
  const value = component.value ? runtime.bind(component.value) : state?.rows[0];
  const record = Array.isArray(value) ? value[0] : value;
  if (record === undefined || record === null || typeof record !== 'object') {
    return <p className="muted small view-empty">{t('views.detail.empty')}</p>;
  }
  const fields = component.fields?.length
    ? component.fields
    : Object.keys(record).map((field) => ({ field, label: field, format: 'auto' as const }));
  const missing = fields.filter((f) => !Object.hasOwn(record, f.field.split('.')[0]!)).map((f) => f.field);
  return (
    <>
      {missing.length > 0 ? (
        <div className="view-problem error-banner" role="alert">
          <div className="error-banner-text">
            {t('views.error.unknownField', { fields: missing.join(', ') })}
          </div>
        </div>
      ) : null}
      <dl className="view-detail">
        {fields.map((f) => (
          <div key={f.field} className="view-detail-row">
            <dt>{f.label ?? f.field}</dt>
            <dd>{formatValue(fieldOf(record, f.field), f.format)}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}
