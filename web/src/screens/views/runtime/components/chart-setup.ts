/**
 * Chart.js with just what the five chart kinds need registered. Imported only through
 * load-chart-js.ts's dynamic import, so it (and the parts of Chart.js it names, tree-shaken)
 * is a chunk of its own that a view without a chart never fetches (decision 0210).
 */
import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PieController,
  PointElement,
  ScatterController,
  Title,
  Tooltip,
} from 'chart.js';

Chart.register(
  BarController,
  LineController,
  PieController,
  ScatterController,
  BarElement,
  LineElement,
  PointElement,
  ArcElement,
  CategoryScale,
  LinearScale,
  Filler,
  Legend,
  Tooltip,
  Title,
);

export { Chart };
