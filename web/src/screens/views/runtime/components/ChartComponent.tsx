/**
 * The chart component: bar, line, area, pie or scatter over the rows of a query (or an
 * expression), one series per y field. Chart.js draws on a canvas and is loaded only when a chart
 * is shown (load-chart-js.ts). A click on a point makes it `components.<id>.value` and runs
 * "On point click" events, mirroring a table's row click. The same points are a data table: the
 * chart's text alternative, visually hidden until "Show data", where Enter on a row picks that point.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useT } from '../../../../i18n/index.tsx';
import { EventOutcomeView } from '../EventOutcomeView.tsx';
import { QueryWaiting } from '../QueryWaiting.tsx';
import { ViewReviewNotice } from '../ReviewNotice.tsx';
import { type EventOutcome, templateText, useViewRuntime } from '../runtime.tsx';
import { ViewProblem } from '../ViewProblem.tsx';
import { type Chart, type ChartPoint, chartConfig, chartPoint, chartSeries } from './chart-config.ts';
import { loadChartJs } from './load-chart-js.ts';

type Row = Record<string, unknown>;

export function ChartComponent({ component }: { component: Chart }) {
  const t = useT();
  const runtime = useViewRuntime();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [showData, setShowData] = useState(false);
  const [outcome, setOutcome] = useState<EventOutcome>();
  const [loadError, setLoadError] = useState<unknown>();

  const state = component.query ? runtime.queries[component.query] : undefined;
  const rows: Row[] = useMemo(() => {
    if (component.value) {
      const value = runtime.bind(component.value);
      if (!Array.isArray(value)) return value && typeof value === 'object' ? [value as Row] : [];
      return value as Row[];
    }
    return state?.rows ?? [];
  }, [component.value, runtime, state]);

  // The title is a template (as the caption above the chart shows it).
  const label = (component.title ? templateText(component.title, runtime.context()) : '') || component.id;
  const series = useMemo(() => chartSeries(component, rows), [component, rows]);
  const selected = runtime.values[component.id] as ChartPoint | undefined;

  // The click handler reads the latest rows and runtime without redrawing the chart.
  const latest = useRef({ rows, runtime, component });
  latest.current = { rows, runtime, component };
  const pick = useRef(async (seriesIndex: number, index: number) => {
    const { rows: now, runtime: rt, component: chart } = latest.current;
    if (!now[index]) return;
    const point = chartPoint(chart, now, seriesIndex, index);
    rt.setValue(chart.id, point);
    if (!chart.pointClick?.length) return;
    setOutcome(undefined);
    setOutcome(await rt.runEvents(chart.pointClick, { row: point.row, point }));
  });

  // Redrawn when what is drawn changes, not on every render (a click re-renders the view).
  const configText = useMemo(
    () => JSON.stringify(chartConfig(component, rows, label)),
    [component, rows, label],
  );

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    let chart: { destroy(): void } | undefined;
    let cancelled = false;
    loadChartJs().then(
      (ChartJs) => {
        if (cancelled) return;
        const config = JSON.parse(configText) as ReturnType<typeof chartConfig>;
        chart = new ChartJs(element, {
          ...(config as never as ConstructorParameters<typeof ChartJs>[1]),
          options: {
            ...(config.options as object),
            onClick: (_event: unknown, elements: { datasetIndex: number; index: number }[]) => {
              const hit = elements[0];
              if (hit) void pick.current(hit.datasetIndex, hit.index);
            },
          },
        });
      },
      (error: unknown) => setLoadError(error),
    );
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [configText]);

  if (state?.status === 'failed') return <ViewProblem error={state.error} where={component.id} />;
  if (state?.status === 'review' && state.review) return <ViewReviewNotice review={state.review} />;
  if (state?.status === 'waiting' && component.query)
    return <QueryWaiting queryId={component.query} state={state} />;
  if (loadError !== undefined) return <ViewProblem error={loadError} where={component.id} />;

  const chartLabel = t('views.chart.label', {
    kind: t(`views.chart.kind.${component.chartType}`),
    title: label,
  });
  return (
    <div className="view-chart" aria-busy={state?.status === 'loading' || undefined}>
      <div className="view-chart-canvas">
        <canvas ref={canvas} role="img" aria-label={chartLabel} />
      </div>
      {state?.status !== 'loading' && rows.length === 0 ? (
        <p className="muted small view-empty">{t('views.chart.empty')}</p>
      ) : null}
      <button
        type="button"
        className="btn btn-quiet btn-small view-chart-toggle"
        aria-expanded={showData}
        onClick={() => setShowData(!showData)}
      >
        {showData ? t('views.chart.hideData') : t('views.chart.showData')}
      </button>
      <div className={showData ? 'view-table-scroll' : 'visually-hidden'}>
        <table className="view-table view-chart-data" aria-label={t('views.chart.dataOf', { chart: label })}>
          <thead>
            <tr>
              <th scope="col">{component.x}</th>
              {series.series.map((s) => (
                <th key={s.field} scope="col">
                  {s.field}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {series.labels.map((x, index) => (
              <tr
                // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id of their own
                key={index}
                className={`view-row-clickable${selected?.index === index ? ' view-row-selected' : ''}`}
                // Focusable only while shown: nothing invisible takes the keyboard's focus.
                tabIndex={showData ? 0 : -1}
                aria-current={selected?.index === index ? 'true' : undefined}
                onClick={() => void pick.current(0, index)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') void pick.current(0, index);
                }}
              >
                <th scope="row">{x}</th>
                {series.series.map((s) => (
                  <td key={s.field}>{s.values[index] === null ? '—' : s.values[index]!.toLocaleString()}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <EventOutcomeView outcome={outcome} />
    </div>
  );
}
