/**
 * Chart.js, loaded on first use only: the dynamic import makes it a chunk of its own that a view
 * without a chart never fetches (decision 0210). Registers just what the five chart kinds need.
 */
import type { Chart as ChartJs } from 'chart.js';

let loading: Promise<typeof ChartJs> | undefined;

export function loadChartJs(): Promise<typeof ChartJs> {
  loading ??= import('chart.js').then((m) => {
    m.Chart.register(
      m.BarController,
      m.LineController,
      m.PieController,
      m.ScatterController,
      m.BarElement,
      m.LineElement,
      m.PointElement,
      m.ArcElement,
      m.CategoryScale,
      m.LinearScale,
      m.Filler,
      m.Legend,
      m.Tooltip,
      m.Title,
    );
    return m.Chart;
  });
  return loading;
}
