/**
 * What a chart component draws, built from its rows (pure, so it is tested without a canvas):
 * the series (x labels, one numeric series per y field), the Chart.js configuration, and the
 * points as a table, which is also the chart's text alternative (decision 0210).
 */
import type { ViewComponent } from '../../view-api.ts';
import { fieldOf, plainText } from './row-fields.ts';

export type Chart = Extract<ViewComponent, { type: 'chart' }>;
/** What drawing needs of a chart: a visual view's component, or a code view's `<Chart>` props. */
export type ChartShape = Pick<Chart, 'chartType' | 'x' | 'y'>;
type Row = Record<string, unknown>;

/** A clicked point: `components.<id>.value`. `row` is the row it came from. */
export interface ChartPoint {
  x: unknown;
  y: number | null;
  series: string;
  index: number;
  row: Row;
}

export interface ChartSeries {
  /** The x value of each row, as text (axis labels, pie slices, the data table's first column). */
  labels: string[];
  /** One per y field (a pie: the first only), with the number per row (null when not a number). */
  series: { field: string; values: (number | null)[] }[];
}

/** Numbers, and numeric text (SQL numeric/bigint columns arrive as text); anything else is a gap. */
export function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

export function chartSeries(chart: ChartShape, rows: readonly Row[]): ChartSeries {
  const fields = chart.chartType === 'pie' ? chart.y.slice(0, 1) : chart.y;
  return {
    labels: rows.map((row) => plainText(fieldOf(row, chart.x))),
    series: fields.map((field) => ({ field, values: rows.map((row) => numberOf(fieldOf(row, field))) })),
  };
}

export function chartPoint(
  chart: ChartShape,
  rows: readonly Row[],
  seriesIndex: number,
  index: number,
): ChartPoint {
  const row = rows[index]!;
  const field = chart.y[seriesIndex]!;
  return { x: fieldOf(row, chart.x), y: numberOf(fieldOf(row, field)), series: field, index, row };
}

/** Distinct on light and dark backgrounds, and in grey scale by lightness. */
export const chartColors = [
  '#2563eb',
  '#d97706',
  '#059669',
  '#db2777',
  '#7c3aed',
  '#0891b2',
  '#65a30d',
  '#dc2626',
];
const colorAt = (i: number) => chartColors[i % chartColors.length]!;

/** The Chart.js configuration (no functions in it but the click handler the component adds). */
export function chartConfig(chart: ChartShape, rows: readonly Row[], label: string) {
  const { labels, series } = chartSeries(chart, rows);
  const kind = chart.chartType;
  const type = kind === 'area' ? 'line' : kind;
  const datasets = series.map((s, i) => {
    if (kind === 'pie') {
      return { label: s.field, data: s.values, backgroundColor: labels.map((_, j) => colorAt(j)) };
    }
    if (kind === 'scatter') {
      const xs = rows.map((row) => numberOf(fieldOf(row, chart.x)));
      return {
        label: s.field,
        data: s.values.map((y, j) => ({ x: xs[j] ?? null, y })),
        backgroundColor: colorAt(i),
        borderColor: colorAt(i),
      };
    }
    return {
      label: s.field,
      data: s.values,
      backgroundColor: kind === 'area' ? `${colorAt(i)}55` : colorAt(i),
      borderColor: colorAt(i),
      fill: kind === 'area',
    };
  });
  return {
    type,
    data: { labels: kind === 'scatter' ? undefined : labels, datasets },
    options: {
      // No motion: a dashboard refreshes often, and a point is where it is drawn when clicked.
      animation: false as const,
      responsive: true,
      maintainAspectRatio: false,
      plugins: {
        title: { display: false, text: label },
        legend: { display: series.length > 1 || kind === 'pie' },
      },
      ...(kind === 'scatter'
        ? { scales: { x: { type: 'linear' as const, title: { display: true, text: chart.x } } } }
        : {}),
    },
  };
}
