/** web/view-frame.ts's plugin: the frame's chart library (frame/chart-library.ts) as text. */
declare module 'virtual:dogu-frame-chart' {
  const source: string;
  export default source;
}
