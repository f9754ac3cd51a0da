/** The SDK's own words inside the frame, in the viewer's language (the console's `en`/`ja`). */
import { locale } from './sdk-bridge.ts';

const en = {
  showData: 'Show data',
  hideData: 'Hide data',
  dataOf: 'Data of {chart}',
  chartLabel: '{kind} chart: {title}',
  bar: 'Bar',
  line: 'Line',
  area: 'Area',
  pie: 'Pie',
  scatter: 'Scatter',
  noData: 'No data to chart.',
  close: 'Close',
  exportCsv: 'Export CSV',
  selectRow: 'Select row {n}',
  selectAll: 'Select all rows',
  previous: 'Previous',
  next: 'Next',
  pageOf: 'Page {page} of {pages}',
  from: 'From',
  to: 'To',
  chartFailed: 'The chart could not be drawn: {detail}',
};
type Key = keyof typeof en;

const ja: Record<Key, string> = {
  showData: 'データを表示',
  hideData: 'データを隠す',
  dataOf: '{chart} のデータ',
  chartLabel: '{kind}: {title}',
  bar: '棒グラフ',
  line: '折れ線グラフ',
  area: '面グラフ',
  pie: '円グラフ',
  scatter: '散布図',
  noData: 'グラフにするデータがありません。',
  close: '閉じる',
  exportCsv: 'CSV を書き出す',
  selectRow: '{n} 行目を選択',
  selectAll: 'すべての行を選択',
  previous: '前へ',
  next: '次へ',
  pageOf: '{page} / {pages} ページ',
  from: '開始',
  to: '終了',
  chartFailed: 'グラフを描けませんでした: {detail}',
};

export function text(key: Key, values: Record<string, string | number> = {}): string {
  const template = (locale.current === 'ja' ? ja : en)[key];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));
}
