/**
 * The code of libraries a code view's frame loads only when the view uses them (decision 0225).
 * The frame cannot fetch anything (`connect-src 'none'`, opaque origin), so the console sends the
 * code as text and the frame runs it from a blob: URL, which its CSP already allows. The text is a
 * chunk of the console's own build (web/view-frame.ts bundles it), fetched on first use only.
 */
import type { FrameLibrary } from '../frame/protocol.ts';

const loading = new Map<FrameLibrary, Promise<string>>();

export function loadFrameLibrary(name: FrameLibrary): Promise<string> {
  let source = loading.get(name);
  if (!source) {
    source = import('virtual:dogu-frame-chart').then((m) => m.default);
    // A failed load (a deploy replaced the chunk) may be retried by the next view.
    source.catch(() => loading.delete(name));
    loading.set(name, source);
  }
  return source;
}
