/**
 * The document inside a code view's sandboxed iframe (built into /view-frame.html; decision 0048).
 * It has an opaque origin (sandbox="allow-scripts" without allow-same-origin) and a CSP without
 * network access, so the view's code can reach neither the console's DOM, cookies and storage nor
 * any server: its only way out is postMessage to the console, which runs actions as the viewer.
 * Before the view's code runs, WebRTC is removed and scripts are locked (close-channels.ts).
 *
 * Start: tell the host we are ready; on `init` (from the parent only) close the channels, load the
 * compiled ES module from a blob: URL with an import map that resolves `react`, `react/jsx-runtime` and `dogu` to
 * this document's copies, render its default export, and beat every 250 ms so the host can stop
 * a view whose code loops.
 */
import * as React from 'react';
import { Component, type ReactNode } from 'react';
import * as jsxRuntime from 'react/jsx-runtime';
import { createRoot } from 'react-dom/client';
import { lockScripts, removeWebRtc } from './close-channels.ts';
import type { FrameActionOutcome, FrameLibrary, ToFrame } from './protocol.ts';
import * as sdk from './sdk.tsx';
import { locale } from './sdk-bridge.ts';

let channel = '';
const pending = new Map<number, (outcome: FrameActionOutcome) => void>();
let nextCall = 1;
/** Libraries asked of the console (decision 0225), one request each. */
const libraries = new Map<
  FrameLibrary,
  { promise: Promise<string>; settle(answer: { source?: string; error?: string }): void }
>();

const post = (message: Record<string, unknown>) =>
  window.parent.postMessage({ dogu: 1, channel, ...message }, '*');

sdk.connect({
  send: post,
  call: (actionId, args, confirm) =>
    new Promise((resolve) => {
      const callId = nextCall++;
      pending.set(callId, resolve);
      post({
        type: 'runAction',
        callId,
        actionId,
        arguments: args,
        ...(confirm === undefined ? {} : { confirm }),
      });
    }),
  library: (name) => {
    let entry = libraries.get(name);
    if (!entry) {
      let settle: (answer: { source?: string; error?: string }) => void = () => {};
      const promise = new Promise<string>((resolve, reject) => {
        settle = (answer) => {
          if (typeof answer.source === 'string') resolve(answer.source);
          else {
            libraries.delete(name); // asked again by the next chart
            reject(new Error(answer.error ?? 'not available'));
          }
        };
      });
      entry = { promise, settle };
      libraries.set(name, entry);
      post({ type: 'library', name });
    }
    return entry.promise;
  },
});

const identifier = /^[A-Za-z_$][\w$]*$/;
/** A module re-exporting one of this document's libraries (blob: URL), for the import map. */
function shimOf(name: string, library: Record<string, unknown>): string {
  const names = Object.keys(library).filter((k) => identifier.test(k) && k !== 'default');
  const source = [
    `const m = globalThis.__doguModules[${JSON.stringify(name)}];`,
    'export default (m.default ?? m);',
    names.length ? `export const { ${names.join(', ')} } = m;` : '',
  ].join('\n');
  return URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
}

function installImportMap() {
  const modules: Record<string, Record<string, unknown>> = {
    react: React as unknown as Record<string, unknown>,
    'react/jsx-runtime': jsxRuntime as unknown as Record<string, unknown>,
    dogu: sdk as unknown as Record<string, unknown>,
  };
  (globalThis as unknown as { __doguModules: unknown }).__doguModules = modules;
  const imports = Object.fromEntries(Object.entries(modules).map(([name, lib]) => [name, shimOf(name, lib)]));
  const map = document.createElement('script');
  map.type = 'importmap';
  map.textContent = JSON.stringify({ imports });
  document.head.append(map);
}

function reportError(error: unknown) {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  post({ type: 'error', message });
}

class Boundary extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override componentDidCatch(error: Error) {
    reportError(error);
  }
  override render() {
    if (this.state.error) return <pre className="dg-error">{String(this.state.error.message)}</pre>;
    return this.props.children;
  }
}

async function start(message: Extract<ToFrame, { type: 'init' }>) {
  channel = message.channel;
  Object.assign(sdk.args, message.args);
  Object.assign(sdk.user, message.user);
  document.documentElement.lang = message.locale;
  locale.current = message.locale;
  setInterval(() => post({ type: 'heartbeat' }), 250);
  new ResizeObserver(() => post({ type: 'resize', height: document.documentElement.scrollHeight })).observe(
    document.body,
  );
  // The view's code runs only where WebRTC is gone and no nested document can run scripts.
  const left = removeWebRtc(window);
  if (left.length > 0 || !lockScripts(document)) {
    reportError(
      new Error(`The view was not started: this browser kept ${left.join(', ') || 'inline scripts'} open.`),
    );
    return;
  }
  try {
    const module = await loadViewModule(message.code);
    if (!module) return; // its error was reported by the window's error listener
    if (typeof module.default !== 'function') throw new Error('The view has no default export component.');
    const View = module.default as React.ComponentType;
    createRoot(document.getElementById('root')!).render(
      <Boundary>
        <View />
      </Boundary>,
    );
    post({ type: 'rendered' });
  } catch (error) {
    reportError(error);
  }
}

/**
 * Loads the view's module through a module script the runtime creates: under `script-src
 * 'strict-dynamic'` Chromium refuses `import()` from this document's inline (parser-inserted) script,
 * but loads scripts created by running code, and their imports. Resolves undefined when the module
 * failed to evaluate (the window's error listener reports that).
 */
function loadViewModule(code: string): Promise<{ default?: unknown } | undefined> {
  const blobOf = (source: string) => URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const url = blobOf(code);
  const hook = '__doguViewLoaded';
  const entry = blobOf(`import * as view from ${JSON.stringify(url)}; globalThis.${hook}(view);`);
  const global = globalThis as unknown as Record<string, unknown>;
  return new Promise((resolve, reject) => {
    global[hook] = (module: { default?: unknown }) => {
      delete global[hook];
      resolve(module);
    };
    const script = document.createElement('script');
    script.type = 'module';
    script.src = entry;
    script.onerror = () => reject(new Error('The view module could not be loaded.'));
    script.onload = () => resolve(undefined);
    document.head.append(script);
  });
}

let started = false;
window.addEventListener('message', (event) => {
  if (event.source !== window.parent) return;
  const data = event.data as ToFrame;
  if (data?.dogu !== 1) return;
  if (data.type === 'init' && !started) {
    started = true;
    void start(data);
  } else if (data.type === 'actionResult' && data.channel === channel) {
    pending.get(data.callId)?.(data.outcome);
    pending.delete(data.callId);
  } else if (data.type === 'library' && data.channel === channel) {
    libraries.get(data.name)?.settle(data);
  }
});
window.addEventListener('error', (event) => reportError(event.error ?? event.message));
window.addEventListener('unhandledrejection', (event) => reportError(event.reason));

installImportMap();
window.parent.postMessage({ dogu: 1, type: 'ready' }, '*');
