/**
 * Chart.js for a code view's frame, bundled apart from the frame's own script (web/view-frame.ts):
 * the console sends this code to a frame only when its view draws a `<Chart>` (decision 0225), and
 * the frame runs it from a blob: URL. The same registration as visual views' charts.
 */
import { Chart } from '../runtime/components/chart-setup.ts';

(globalThis as unknown as { __doguChartJs: typeof Chart }).__doguChartJs = Chart;
