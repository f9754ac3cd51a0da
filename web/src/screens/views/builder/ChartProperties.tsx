/** The builder's properties of a chart: kind, rows (a query or an expression), x and y fields, point-click events. */
import { viewChartKinds } from '../../../../../shared/domain/definitions/view.ts';
import { useT } from '../../../i18n/index.tsx';
import type { ViewComponent } from '../view-api.ts';
import { useBuilderChoices } from './builder-context.ts';
import { EventsEditor } from './EventsEditor.tsx';
import { LinesField, Text } from './property-fields.tsx';

type Chart = Extract<ViewComponent, { type: 'chart' }>;

export function ChartProperties({
  component: c,
  onChange,
}: {
  component: Chart;
  onChange(next: ViewComponent): void;
}) {
  const t = useT();
  const choices = useBuilderChoices();
  const set = (patch: Partial<Chart>) => {
    const next = { ...c, ...patch } as Record<string, unknown>;
    for (const [k, v] of Object.entries(patch)) if (v === undefined || v === '') delete next[k];
    onChange(next as ViewComponent);
  };
  return (
    <>
      <label className="builder-field">
        <span>{t('views.builder.prop.chartType')}</span>
        <select
          aria-label={t('views.builder.prop.chartType')}
          value={c.chartType}
          onChange={(e) => set({ chartType: e.target.value as Chart['chartType'] })}
        >
          {viewChartKinds.map((kind) => (
            <option key={kind} value={kind}>
              {t(`views.chart.kind.${kind}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="builder-field">
        <span>{t('views.builder.query')}</span>
        <select
          aria-label={t('views.builder.query')}
          value={c.query ?? ''}
          onChange={(e) => set({ query: e.target.value || undefined })}
        >
          <option value="">—</option>
          {choices.queries.map((q) => (
            <option key={q} value={q}>
              {q}
            </option>
          ))}
        </select>
      </label>
      <Text
        label={t('views.builder.prop.value')}
        mono
        value={c.value}
        onChange={(value) => set({ value: value || undefined })}
      />
      <Text label={t('views.builder.prop.chartX')} mono value={c.x} onChange={(x) => onChange({ ...c, x })} />
      <LinesField
        label={t('views.builder.prop.chartY')}
        initial={c.y.join('\n')}
        onChange={(text) =>
          onChange({
            ...c,
            y: text
              .split('\n')
              .map((s) => s.trim())
              .filter(Boolean),
          })
        }
      />
      <EventsEditor
        label={t('views.builder.prop.pointClick')}
        events={c.pointClick ?? []}
        onChange={(pointClick) => set({ pointClick: pointClick.length ? pointClick : undefined })}
      />
    </>
  );
}
