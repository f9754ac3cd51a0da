/**
 * Runs one script in a fresh QuickJS runtime (WebAssembly): the interpreter has no file system,
 * process, environment, network or module loader at all, so nothing is there to hide. The host
 * gives it only `console`, `actions.run` and the JSON globals; every value crosses as JSON text,
 * so no object of the host is ever reachable from the script (decision 0039).
 * Shared by the embedded runtime's worker thread and the AWS sandbox function.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as release from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import type { ScriptErrorCode, ScriptLog, ScriptOutcome } from '../../domain/ports.ts';
import { databaseClients } from './database-clients.ts';

export interface QuickJsRequest {
  code: string;
  globals: Record<string, unknown>;
  timeLimitMs: number;
  memoryLimitBytes: number;
  /** Whether `actions.run` is offered. */
  canRunActions: boolean;
  /** Document-database actions: which client objects the script gets (db/firestore or datastore). */
  database?: DatabaseMode;
}

export type DatabaseMode = 'document' | 'key-entity';

/** What the script asks of the host: an action run, or a database operation. */
export type HostRequest =
  | { channel: 'action'; actionId: string; args: Record<string, unknown> }
  | { channel: 'database'; operation: Record<string, unknown> };

/** Answers the script's requests; rejects with an Error whose message the script sees. */
export type HostCall = (request: HostRequest) => Promise<unknown>;

/** What a script may allocate unless its runtime says otherwise. */
export const defaultScriptMemoryBytes = 64 * 1024 * 1024;
export const userFile = 'script.js';
export const suspendedMessage = 'suspended for an action run';
const suspension = new Error(suspendedMessage);
const wrapperHead = '(async function () {';
const maxLogs = 1000;
const maxLogChars = 64 * 1024;
const maxStackBytes = 512 * 1024;

// The package's CommonJS types name the variant `default`; its ES module exports it as default too.
const variant = release.default as unknown as QuickJSSyncVariant;
// Node has WebAssembly; the project's type libraries (ES2023, node) do not declare it.
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
interface WasmApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  Memory: new (descriptor: { initial: number; maximum: number }) => object;
}
type WasmModule = NonNullable<Parameters<typeof newVariant>[1]['wasmModule']>;
const pageBytes = 64 * 1024;
/** Room for the interpreter itself beside what the script may allocate. */
const interpreterBytes = 32 * 1024 * 1024;

let compiled: Promise<WasmModule> | undefined;
/** The interpreter compiled once per process (a bundle names its copy in QUICKJS_WASM_PATH). */
export function compiledQuickJs(): Promise<WasmModule> {
  compiled ??= (async () => {
    const path =
      process.env.QUICKJS_WASM_PATH ??
      createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
    return wasm.compile(await readFile(path));
  })();
  return compiled;
}

/**
 * A fresh WebAssembly instance per run: its memory has a hard maximum (QuickJS's own accounting
 * misses some string buffers), and wasm memory never shrinks, so it is dropped after the run.
 */
const loadQuickJs = async (memoryLimitBytes: number): Promise<QuickJSWASMModule> =>
  newQuickJSWASMModuleFromVariant(
    newVariant(variant, {
      wasmModule: await compiledQuickJs(),
      wasmMemory: new wasm.Memory({
        initial: 256,
        maximum: Math.ceil((memoryLimitBytes + interpreterBytes) / pageBytes),
      }),
    }),
  );

// Runs inside QuickJS before the user's code: captures the host functions in closures, then removes
// them from the global object, so the script sees only console, actions and its globals. Its value is
// the function that turns the script's result into JSON text (kept by the host, unseen by the script).
const prelude = `(() => {
  const host = globalThis.__doguHost, log = globalThis.__doguLog;
  delete globalThis.__doguHost; delete globalThis.__doguLog;
  const show = (v) => {
    if (typeof v === 'string') return v;
    if (v instanceof Error) return String(v.stack ? v.name + ': ' + v.message : v);
    try { const t = JSON.stringify(v); return t === undefined ? String(v) : t; } catch { return String(v); }
  };
  const console = {};
  for (const level of ['log', 'info', 'warn', 'error', 'debug'])
    console[level] = (...args) => { log(level, args.map(show).join(' ')); };
  Object.freeze(console);
  Object.defineProperty(globalThis, 'console', { value: console, enumerable: false });
  const actions = Object.freeze({
    run: async (actionId, args = {}) => {
      if (typeof actionId !== 'string') throw new TypeError('actions.run needs an action id (a string)');
      if (args === null || typeof args !== 'object' || Array.isArray(args))
        throw new TypeError('actions.run needs its arguments as an object, e.g. { id: 1 }');
      return JSON.parse(await host('action', JSON.stringify({ actionId, args })));
    },
  });
  if (globalThis.__doguActions) Object.defineProperty(globalThis, 'actions', { value: actions, enumerable: false });
  delete globalThis.__doguActions;
  const database = globalThis.__doguDatabase;
  delete globalThis.__doguDatabase;
  if (database) {
    const call = async (operation) => JSON.parse(await host('database', JSON.stringify(operation)));
    for (const [name, value] of Object.entries((${databaseClients})(database, call)))
      Object.defineProperty(globalThis, name, { value, enumerable: false });
  }
  return (value) => {
    const text = JSON.stringify(value === undefined ? null : value, function (key, v) {
      const t = typeof v;
      if (t === 'function' || t === 'symbol' || t === 'bigint')
        throw new TypeError('the returned value holds a ' + t + (key ? " at '" + key + "'" : '') + ', which is not JSON');
      return v;
    });
    return text;
  };
})();`;

/**
 * Runs the script to its end, or until `suspended` resolves (the AWS sandbox function stops where
 * the script waits for an action it has no answer for yet: decision 0039).
 */
export async function runInQuickJs(
  request: QuickJsRequest,
  host: HostCall,
  suspended?: Promise<void>,
): Promise<ScriptOutcome> {
  const started = Date.now();
  const deadline = started + request.timeLimitMs;
  const logs: ScriptLog[] = [];
  let logChars = 0;
  const module = await loadQuickJs(request.memoryLimitBytes);
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(request.memoryLimitBytes);
  runtime.setMaxStackSize(maxStackBytes);
  let interrupted = false;
  runtime.setInterruptHandler(() => {
    if (Date.now() > deadline) interrupted = true;
    return interrupted;
  });
  const vm = runtime.newContext();
  const pending = new Set<Promise<unknown>>();
  let toJson: QuickJSHandle | undefined;
  const done = (
    outcome:
      | { ok: true; value: unknown }
      | { ok: false; error: Extract<ScriptOutcome, { ok: false }>['error'] },
  ) => ({ ...outcome, logs, durationMs: Date.now() - started }) as ScriptOutcome;
  const fail = (code: ScriptErrorCode, message: string, extra: Record<string, unknown> = {}) =>
    done({ ok: false, error: { code, message, ...extra } });
  try {
    defineHostFunctions(vm, request, host, pending, (log) => {
      if (logs.length >= maxLogs || logChars >= maxLogChars) return;
      const message = log.message.slice(0, maxLogChars - logChars);
      logChars += message.length;
      logs.push({ ...log, message });
    });
    toJson = vm.unwrapResult(vm.evalCode(prelude, 'dogu-prelude.js'));

    const compiled = vm.evalCode(`${wrapperHead}${request.code}\n})`, userFile);
    if (compiled.error) {
      const error = describeError(vm, compiled.error);
      compiled.error.dispose();
      return fail('script_syntax_error', error.message, position(error));
    }
    const called = vm.callFunction(compiled.value, vm.undefined);
    compiled.value.dispose();
    if (called.error) return thrown(called.error);
    const promise = called.value;
    try {
      for (;;) {
        const jobs = runtime.executePendingJobs();
        if (jobs.error) return thrown(jobs.error);
        const state = vm.getPromiseState(promise);
        if (state.type === 'fulfilled') return finish(state.value);
        if (state.type === 'rejected') return thrown(state.error);
        if (pending.size === 0) {
          return fail('script_error', 'The script is waiting for something that never happens.');
        }
        const left = deadline - Date.now();
        if (left <= 0) return timedOut();
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          ...pending,
          ...(suspended ? [suspended.then(() => Promise.reject(suspension))] : []),
          new Promise((resolve) => {
            timer = setTimeout(resolve, left);
          }),
        ]);
        clearTimeout(timer);
      }
    } finally {
      promise.dispose();
    }
  } catch (error) {
    if (error === suspension) return fail('script_error', suspendedMessage);
    if (interrupted) return timedOut();
    return fail('script_error', error instanceof Error ? error.message : String(error));
  } finally {
    // A runtime that hit its memory limit may be left inconsistent; it is never reused.
    try {
      toJson?.dispose();
      vm.dispose();
      runtime.dispose();
    } catch {
      // The worker or function that ran it is discarded after an accident.
    }
  }

  function timedOut() {
    return fail('script_timeout', `The script ran longer than its time limit of ${request.timeLimitMs} ms.`);
  }

  function finish(value: QuickJSHandle): ScriptOutcome {
    const text = vm.callFunction(toJson!, vm.undefined, value);
    value.dispose();
    if (text.error) {
      const error = describeError(vm, text.error);
      text.error.dispose();
      if (/out of memory/i.test(error.message)) return memoryExceeded();
      return fail('script_result_not_json', `The script's result is not JSON: ${error.message}`);
    }
    const json = vm.getString(text.value);
    text.value.dispose();
    return done({ ok: true, value: JSON.parse(json) });
  }

  function thrown(handle: QuickJSHandle): ScriptOutcome {
    const error = describeError(vm, handle);
    handle.dispose();
    if (interrupted || (error.name === 'InternalError' && error.message === 'interrupted')) return timedOut();
    if (/out of memory/i.test(error.message)) return memoryExceeded();
    if (error.name === 'SyntaxError' && error.frames.length === 0)
      return fail('script_syntax_error', error.message, position(error));
    const stack = error.frames.map((f) => `    at ${f.name} (${userFile}:${f.line}:${f.column})`).join('\n');
    return fail('script_error', `${error.name}: ${error.message}`, {
      ...position(error),
      ...(stack ? { stack } : {}),
    });
  }

  function memoryExceeded() {
    return fail(
      'script_memory_limit',
      `The script used more than its memory limit of ${Math.round(request.memoryLimitBytes / 1024 / 1024)} MiB.`,
    );
  }
}

function defineHostFunctions(
  vm: QuickJSContext,
  request: QuickJsRequest,
  host: HostCall,
  pending: Set<Promise<unknown>>,
  log: (entry: ScriptLog) => void,
) {
  const logFn = vm.newFunction('log', (level, message) => {
    log({ level: vm.getString(level) as ScriptLog['level'], message: vm.getString(message) });
  });
  vm.setProp(vm.global, '__doguLog', logFn);
  logFn.dispose();
  const hostFn = vm.newFunction('host', (channelHandle, payloadHandle) => {
    const deferred = vm.newPromise();
    const channel = vm.getString(channelHandle);
    const payload = JSON.parse(vm.getString(payloadHandle));
    const call = (async () =>
      host(
        channel === 'database'
          ? { channel: 'database', operation: payload }
          : { channel: 'action', actionId: payload.actionId, args: payload.args },
      ))().then(
      (value) => {
        if (!vm.alive) return;
        const text = vm.newString(JSON.stringify(value ?? null));
        deferred.resolve(text);
        text.dispose();
      },
      (error: unknown) => {
        if (!vm.alive) return;
        const handle = vm.newError(error instanceof Error ? error.message : String(error));
        deferred.reject(handle);
        handle.dispose();
      },
    );
    const tracked = call.finally(() => pending.delete(tracked));
    pending.add(tracked);
    return deferred.handle;
  });
  vm.setProp(vm.global, '__doguHost', hostFn);
  hostFn.dispose();
  if (request.canRunActions) vm.setProp(vm.global, '__doguActions', vm.true);
  if (request.database) {
    const mode = vm.newString(request.database);
    vm.setProp(vm.global, '__doguDatabase', mode);
    mode.dispose();
  }
  for (const [name, value] of Object.entries(request.globals)) {
    const parsed = vm.unwrapResult(vm.evalCode(`(${JSON.stringify(JSON.stringify(value ?? null))})`));
    const parse = vm.unwrapResult(vm.evalCode('JSON.parse'));
    const object = vm.unwrapResult(vm.callFunction(parse, vm.undefined, parsed));
    vm.setProp(vm.global, name, object);
    for (const h of [parsed, parse, object]) h.dispose();
  }
}

interface DescribedError {
  name: string;
  message: string;
  frames: { name: string; line: number; column: number }[];
  line?: number;
  column?: number;
}

/** Name, message and the frames of the user's own file (the prelude and wrapper are not shown). */
function describeError(vm: QuickJSContext, handle: QuickJSHandle): DescribedError {
  const dumped = vm.dump(handle) as unknown;
  if (!dumped || typeof dumped !== 'object')
    return { name: 'Error', message: `Uncaught ${JSON.stringify(dumped) ?? String(dumped)}`, frames: [] };
  const record = dumped as { name?: unknown; message?: unknown; stack?: unknown; lineNumber?: unknown };
  const name = typeof record.name === 'string' ? record.name : 'Error';
  const message = typeof record.message === 'string' ? record.message : JSON.stringify(dumped);
  const frames: DescribedError['frames'] = [];
  for (const line of String(record.stack ?? '').split('\n')) {
    const match = /at (?:(.*?) \()?script\.js:(\d+)(?::(\d+))?\)?/.exec(line);
    if (!match) continue;
    const row = Number(match[2]);
    const column = match[3] ? Number(match[3]) : 1;
    frames.push({
      name: match[1] && match[1] !== '<anonymous>' ? match[1] : '<script>',
      line: row,
      column: row === 1 ? Math.max(1, column - wrapperHead.length) : column,
    });
  }
  return {
    name,
    message,
    frames,
    ...(frames[0] ? { line: frames[0].line, column: frames[0].column } : {}),
  };
}

const position = (error: DescribedError) =>
  error.line !== undefined ? { line: error.line, column: error.column } : {};
