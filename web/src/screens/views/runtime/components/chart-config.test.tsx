/** The chart's series and Chart.js configuration built from a query's rows (chart-config.ts). */
import { describe, expect, it } from 'vitest';
import { type Chart, chartConfig, chartPoint, chartSeries, numberOf } from './chart-config.ts';

const rows = [
  { status: 'paid', orders: 4, total_yen: '12000.50', customer: { country: 'JP' } },
  { status: 'shipped', orders: 7, total_yen: 30000, customer: { country: 'US' } },
  { status: 'cancelled', orders: 1, total_yen: null, customer: { country: 'JP' } },
];
const chart = (patch: Partial<Chart>): Chart => ({
  id: 'c1',
  type: 'chart',
  chartType: 'bar',
  query: 'q',
  x: 'status',
  y: ['orders', 'total_yen'],
  ...patch,
});

describe('chart series from rows', () => {
  it('one label per row and one series per y field; numeric text counts, anything else is a gap', () => {
    expect(chartSeries(chart({}), rows)).toEqual({
      labels: ['paid', 'shipped', 'cancelled'],
      series: [
        { field: 'orders', values: [4, 7, 1] },
        { field: 'total_yen', values: [12000.5, 30000, null] },
      ],
    });
    expect([numberOf('x'), numberOf(''), numberOf(Number.NaN), numberOf(true), numberOf(' 3 ')]).toEqual([
      null,
      null,
      null,
      null,
      3,
    ]);
  });

  it('reads dot paths for x, and a pie keeps its first y field only', () => {
    expect(chartSeries(chart({ chartType: 'pie', x: 'customer.country' }), rows)).toEqual({
      labels: ['JP', 'US', 'JP'],
      series: [{ field: 'orders', values: [4, 7, 1] }],
    });
  });

  it('a clicked point names its x, y, series, index and row', () => {
    expect(chartPoint(chart({}), rows, 1, 1)).toEqual({
      x: 'shipped',
      y: 30000,
      series: 'total_yen',
      index: 1,
      row: rows[1],
    });
  });
});

describe('the Chart.js configuration', () => {
  it('bar: category labels, a dataset per series, a legend only with two or more, no animation', () => {
    const config = chartConfig(chart({}), rows, 'Orders');
    expect(config.type).toBe('bar');
    expect(config.data.labels).toEqual(['paid', 'shipped', 'cancelled']);
    expect(config.data.datasets.map((d) => [d.label, d.data])).toEqual([
      ['orders', [4, 7, 1]],
      ['total_yen', [12000.5, 30000, null]],
    ]);
    expect(config.options.animation).toBe(false);
    expect(config.options.plugins.legend.display).toBe(true);
    expect(chartConfig(chart({ y: ['orders'] }), rows, 'O').options.plugins.legend.display).toBe(false);
  });

  it('area is a filled line; line is not filled', () => {
    const area = chartConfig(chart({ chartType: 'area', y: ['orders'] }), rows, 'A');
    expect(area.type).toBe('line');
    expect(area.data.datasets[0]).toMatchObject({ fill: true, data: [4, 7, 1] });
    expect(
      chartConfig(chart({ chartType: 'line', y: ['orders'] }), rows, 'L').data.datasets[0],
    ).toMatchObject({
      fill: false,
    });
  });

  it('pie: one colour per slice; scatter: numeric x/y pairs on a linear x axis', () => {
    const pie = chartConfig(chart({ chartType: 'pie' }), rows, 'P');
    expect(pie.data.datasets).toHaveLength(1);
    expect((pie.data.datasets[0] as { backgroundColor: string[] }).backgroundColor).toHaveLength(3);
    const scatter = chartConfig(chart({ chartType: 'scatter', x: 'orders', y: ['total_yen'] }), rows, 'S');
    expect(scatter.type).toBe('scatter');
    expect(scatter.data.labels).toBeUndefined();
    expect(scatter.data.datasets[0]!.data).toEqual([
      { x: 4, y: 12000.5 },
      { x: 7, y: 30000 },
      { x: 1, y: null },
    ]);
    expect(scatter.options.scales?.x.type).toBe('linear');
  });
});
