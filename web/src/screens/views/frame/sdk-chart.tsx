/**
 * `<Chart>` for code views: the five kinds of visual views' charts (decision 0210), built by the
 * same configuration code, drawn by Chart.js on a canvas. Chart.js is not in the frame's document:
 * the first chart asks the console for its code and runs it from a blob: URL (decision 0225). The
 * canvas is named for screen readers, and the same points are a data table, visually hidden until
 * "Show data", where Enter on a row picks that point as a click does.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  type ChartPoint,
  type ChartShape,
  chartConfig,
  chartPoint,
  chartSeries,
} from '../runtime/components/chart-config.ts';
import { connected } from './sdk-bridge.ts';
import { text } from './sdk-texts.ts';

type Row = Record<string, unknown>;
type ChartJs = new (canvas: HTMLCanvasElement, config: unknown) => { destroy(): void };

let loading: Promise<ChartJs> | undefined;

/** Chart.js, once per frame: the console sends its code on the first chart's request. */
function loadChartJs(): Promise<ChartJs> {
  loading ??= connected()
    .library('chart')
    .then(
      (source) =>
        new Promise<ChartJs>((resolve, reject) => {
          const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
          const script = document.createElement('script');
          script.src = url;
          script.onload = () => {
            URL.revokeObjectURL(url);
            const chart = (globalThis as unknown as { __doguChartJs?: ChartJs }).__doguChartJs;
            if (chart) resolve(chart);
            else reject(new Error('Chart.js did not load.'));
          };
          script.onerror = () => reject(new Error('Chart.js could not be run.'));
          document.head.append(script);
        }),
    );
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

export type { ChartPoint };

export function Chart({
  type,
  rows,
  x,
  y,
  title,
  height,
  onPointClick,
}: {
  type: ChartShape['chartType'];
  rows: Row[];
  /** The field (or dot path) of the labels; a number for `scatter`. */
  x: string;
  /** One series per field (a pie shows the first). */
  y: string | string[];
  title?: string;
  /** The canvas's height in pixels (default 260). */
  height?: number;
  onPointClick?: (point: ChartPoint) => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [showData, setShowData] = useState(false);
  const [selected, setSelected] = useState<number>();
  const [failure, setFailure] = useState<string>();
  // The fields' names, not the array's identity: `y={['a', 'b']}` is a new array every render.
  const yText = Array.isArray(y) ? y.join('\n') : y;
  const shape = useMemo<ChartShape>(() => ({ chartType: type, x, y: yText.split('\n') }), [type, x, yText]);
  const label = title || shape.y.join(', ');
  const series = useMemo(() => chartSeries(shape, rows), [shape, rows]);

  const latest = useRef({ rows, shape, onPointClick });
  latest.current = { rows, shape, onPointClick };
  const pick = useRef((seriesIndex: number, index: number) => {
    const { rows: now, shape: chart, onPointClick: onClick } = latest.current;
    if (!now[index]) return;
    setSelected(index);
    onClick?.(chartPoint(chart, now, seriesIndex, index));
  });

  // Redrawn when what is drawn changes, not on every render.
  const configText = useMemo(() => JSON.stringify(chartConfig(shape, rows, label)), [shape, rows, label]);
  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    let chart: { destroy(): void } | undefined;
    let cancelled = false;
    loadChartJs().then(
      (ChartJs) => {
        if (cancelled) return;
        const config = JSON.parse(configText) as { options: object };
        chart = new ChartJs(element, {
          ...config,
          options: {
            ...config.options,
            onClick: (_event: unknown, elements: { datasetIndex: number; index: number }[]) => {
              const hit = elements[0];
              if (hit) pick.current(hit.datasetIndex, hit.index);
            },
          },
        });
      },
      (error: unknown) => setFailure(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [configText]);

  if (failure) return <p className="dg-error">{text('chartFailed', { detail: failure })}</p>;
  return (
    <figure className="dg-chart">
      <div className="dg-chart-canvas" style={{ height: height ?? 260 }}>
        <canvas ref={canvas} role="img" aria-label={text('chartLabel', { kind: text(type), title: label })} />
      </div>
      {rows.length === 0 ? <p className="dg-muted">{text('noData')}</p> : null}
      <button
        type="button"
        className="dg-button dg-secondary dg-small"
        aria-expanded={showData}
        onClick={() => setShowData(!showData)}
      >
        {showData ? text('hideData') : text('showData')}
      </button>
      <div className={showData ? undefined : 'dg-visually-hidden'}>
        <table className="dg-table" aria-label={text('dataOf', { chart: label })}>
          <thead>
            <tr>
              <th scope="col">{shape.x}</th>
              {series.series.map((s) => (
                <th key={s.field} scope="col">
                  {s.field}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {series.labels.map((label, index) => (
              <tr
                // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id of their own
                key={index}
                className={`dg-click${selected === index ? ' dg-selected' : ''}`}
                // Focusable only while shown: nothing invisible takes the keyboard's focus.
                tabIndex={showData ? 0 : -1}
                aria-current={selected === index ? 'true' : undefined}
                onClick={() => pick.current(0, index)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') pick.current(0, index);
                }}
              >
                <th scope="row">{label}</th>
                {series.series.map((s) => (
                  <td key={s.field}>{s.values[index] === null ? '—' : s.values[index]!.toLocaleString()}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
