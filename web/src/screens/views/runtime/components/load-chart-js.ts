/** Chart.js, loaded on first use only (a chunk of its own: chart-setup.ts; decision 0210). */
import type { Chart as ChartJs } from 'chart.js';

let loading: Promise<typeof ChartJs> | undefined;

export function loadChartJs(): Promise<typeof ChartJs> {
  loading ??= import('./chart-setup.ts').then((m) => m.Chart);
  // A failed load (a deploy replaced the chunk) may be retried by the next chart.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
