/**
 * The state of one rendered visual view: its arguments (`panel.args`), the queries' results, the
 * components' values, and the events (run a query or an action, refresh, navigate). Components
 * read it through `useViewRuntime()`; expressions see `context()`. Every action goes through
 * `runViewAction` (the execution endpoint, as the viewer); nothing here widens what they may do.
 */
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { Execution, Parameter, ReviewRequested } from '../../../api/types.ts';
import { navigate as go } from '../../../app/router.tsx';
import { useToast } from '../../../components/Toast.tsx';
import { flatten } from '../builder/draft.ts';
import { evaluate, renderTemplate } from '../expressions/evaluate.ts';
import {
  type ActionOutcome,
  loadActionParameters,
  resultOf,
  runViewAction,
  type ViewEvent,
  type ViewQuery,
  type VisualViewDefinition,
} from '../view-api.ts';
import { useConfirmedRun } from './confirm-run.tsx';
import { queriesReading } from './input-changes.ts';
import { useOutsideHosts } from './outside-hosts.tsx';
import { isNotThereYet, missingArguments } from './query-readiness.ts';

type Row = Record<string, unknown>;

export interface QueryState {
  status: 'idle' | 'waiting' | 'loading' | 'done' | 'failed' | 'review';
  /** `waiting`: the arguments still empty (none named: no action chosen yet); it runs once they are filled. */
  waitingFor?: string[];
  rows: Row[];
  result: unknown;
  error?: unknown;
  review?: ReviewRequested;
  execution?: Execution;
  /** Server-side paging: the page asked for (0-based); while it loads, the rows are still of `rowsPage`. */
  page: number;
  /** The page the rows belong to (set when they arrive). */
  rowsPage?: number;
}

/** What an event chain ended with, shown next to the component that started it. */
export type EventOutcome =
  /** `actionRan`: an action ran (a quiet outcome otherwise: a query, a refresh, a navigation). */
  | { kind: 'done'; actionRan?: boolean }
  | { kind: 'review'; review: ReviewRequested }
  | { kind: 'failed'; error: unknown };

export interface ViewRuntime {
  viewId: string;
  projectId: string;
  environmentId: string;
  definition: VisualViewDefinition;
  args: Record<string, unknown>;
  queries: Record<string, QueryState>;
  values: Record<string, unknown>;
  setValue(componentId: string, value: unknown): void;
  /** Other properties a component shows to expressions (`components.<id>.selectedRows`). */
  setComponentState(componentId: string, state: Record<string, unknown>): void;
  /** The view state variables (`state.<name>`), set by `setState` events. */
  state: Record<string, unknown>;
  /** The modal and drawer components open now (by `openModal` events, until `closeModal` or Escape). */
  openModals: string[];
  closeModal(modalId: string): void;
  /**
   * A standalone input changed: its value now, and once the changes pause (`pause` ms) the
   * queries that read it run again (once) and its `onChange` events run.
   */
  changeInput(componentId: string, value: unknown, pause?: number, onChange?: ViewEvent[]): void;
  /** The names expressions use, plus `extra` (`row` in a table). */
  context(extra?: Record<string, unknown>): Record<string, unknown>;
  /** An argument or other expression; a text with `{{ }}` is a template. */
  bind(expression: string, extra?: Record<string, unknown>): unknown;
  runQuery(queryId: string, page?: number): Promise<void>;
  runEvents(events: ViewEvent[], extra?: Record<string, unknown>): Promise<EventOutcome>;
  hrefOf(path: string): string;
}

const RuntimeContext = createContext<ViewRuntime | undefined>(undefined);

export function useViewRuntime(): ViewRuntime {
  const runtime = useContext(RuntimeContext);
  if (!runtime) throw new Error('useViewRuntime is used outside a view.');
  return runtime;
}

/** How long an edited query (or a typed search) waits for the next key before it runs (ms). */
export const editPause = 400;

const idle: QueryState = { status: 'idle', rows: [], result: undefined, page: 0 };

/** Evaluates an argument: `{{ }}` templates and plain expressions alike. */
export function bindValue(expression: string, context: Record<string, unknown>): unknown {
  return expression.includes('{{') ? renderTemplate(expression, context) : evaluate(expression, context);
}

/** A caption or content: literal text with `{{ expr }}` holes, always a string. */
export function templateText(template: string, context: Record<string, unknown>): string {
  if (!template.includes('{{')) return template;
  const value = renderTemplate(template, context);
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Only http(s) leaves the console: `javascript:`, `data:` and relative tricks are refused. */
export function safeExternalUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export class UnsafeUrl extends Error {
  constructor(readonly url: string) {
    super(`Only http and https addresses can be opened: ${url}`);
    this.name = 'UnsafeUrl';
  }
}

export interface ViewRuntimeProps {
  viewId: string;
  definition: VisualViewDefinition;
  args: Record<string, unknown>;
  user: Record<string, unknown>;
  projectId: string;
  environmentId: string;
  /** Workspace link builder (`/p/…/e/…` + path). */
  href(path: string): string;
  children: ReactNode;
}

export function ViewRuntimeProvider(props: ViewRuntimeProps) {
  const { definition, args, user, viewId, projectId, environmentId, href } = props;
  const [queries, setQueries] = useState<Record<string, QueryState>>({});
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [openModals, setOpenModals] = useState<string[]>([]);
  // View state variables: their first values are read once per view (without `state` itself).
  const [state, setStateVars] = useState<Record<string, unknown>>(() => {
    const out: Record<string, unknown> = {};
    for (const [name, text] of Object.entries(definition.state ?? {})) {
      try {
        out[name] = bindValue(text, { panel: { args }, user, components: {}, queries: {} });
      } catch {
        out[name] = undefined;
      }
    }
    return out;
  });
  const stateRef = useRef(state);
  stateRef.current = state;
  const closeModal = useCallback(
    (modalId: string) => setOpenModals((open) => open.filter((id) => id !== modalId)),
    [],
  );
  const componentIds = useMemo(
    () => flatten(definition.layout).map((entry) => entry.component.id),
    [definition],
  );
  // Tables' checked rows start empty, so `components.t1.selectedRows.length` reads 0, not an error.
  const tableIds = useMemo(
    () => flatten(definition.layout).flatMap((e) => (e.component.type === 'table' ? [e.component.id] : [])),
    [definition],
  );
  const statesRef = useRef<Record<string, Record<string, unknown>>>({});
  // Events chain (run an action, then refresh): they read the newest state, not a render's copy.
  const queriesRef = useRef(queries);
  const valuesRef = useRef(values);
  queriesRef.current = queries;
  valuesRef.current = values;

  const context = useCallback(
    (extra: Record<string, unknown> = {}) => {
      // Every component of the layout is there (its value undefined until it has one), so
      // `components.table.value` reads as undefined rather than failing before a row is clicked.
      const components: Record<string, { value: unknown }> = {};
      for (const id of componentIds) components[id] = { value: undefined };
      for (const id of tableIds)
        components[id] = { value: undefined, selectedRows: [] } as { value: unknown };
      for (const [id, state] of Object.entries(statesRef.current))
        components[id] = { ...components[id]!, ...state };
      for (const [id, value] of Object.entries(valuesRef.current))
        components[id] = { ...components[id], value };
      const q: Record<string, unknown> = {};
      for (const query of definition.queries) {
        const state = queriesRef.current[query.id] ?? idle;
        q[query.id] = {
          rows: state.rows,
          result: state.result,
          loading: state.status === 'loading',
          error: state.error instanceof Error ? state.error.message : undefined,
          page: state.page,
        };
      }
      return { panel: { args }, user, components, queries: q, state: stateRef.current, ...extra };
    },
    [args, user, definition, componentIds, tableIds],
  );

  const setQuery = useCallback((id: string, next: QueryState) => {
    queriesRef.current = { ...queriesRef.current, [id]: next };
    setQueries(queriesRef.current);
  }, []);

  const where = useMemo(() => ({ projectId, environmentId, viewId }), [projectId, environmentId, viewId]);
  const confirmedRun = useConfirmedRun();
  const outside = useOutsideHosts();
  const toast = useToast();

  // The actions' parameters, read once per action: which arguments a query must have before it runs
  // by itself. Unreadable (no right to read the definition): the query runs as it is.
  const parameterCache = useRef(new Map<string, Promise<Parameter[] | undefined>>());
  const parametersOf = useCallback(
    (actionId: string) => {
      let cached = parameterCache.current.get(actionId);
      if (!cached) {
        cached = loadActionParameters(projectId, actionId).catch(() => undefined);
        parameterCache.current.set(actionId, cached);
      }
      return cached;
    },
    [projectId],
  );

  // Each start of a query supersedes the previous one: only the newest may write its state, so a
  // slow older answer never replaces a newer one (and two starts in a row send one run, see below).
  const generations = useRef<Record<string, number>>({});

  /**
   * `clicked`: the viewer started it, so a data-changing action may run after their confirmation.
   * `whenReady`: it started by itself (on load, a refresh, a value it waited for): with a required
   * argument still empty it waits instead of running (query-readiness.ts).
   */
  const runQuery = useCallback(
    async (queryId: string, page?: number, clicked = false, whenReady = false) => {
      const query: ViewQuery | undefined = definition.queries.find((q) => q.id === queryId);
      if (!query) return;
      const generation = (generations.current[queryId] ?? 0) + 1;
      generations.current[queryId] = generation;
      const newest = () => generations.current[queryId] === generation;
      const previous = queriesRef.current[queryId] ?? idle;
      const pageNow = page ?? previous.page;
      if (!query.actionId) {
        setQuery(queryId, { ...idle, status: 'waiting', waitingFor: [], page: pageNow });
        return;
      }
      // A waiting query stays shown as waiting until it is ready to run.
      if (previous.status !== 'waiting') setQuery(queryId, { ...previous, status: 'loading', page: pageNow });
      try {
        const ctx = context();
        const actionArgs: Record<string, unknown> = {};
        const notThere: string[] = [];
        for (const [name, expression] of Object.entries(query.arguments ?? {})) {
          try {
            actionArgs[name] = bindValue(expression, ctx);
          } catch (error) {
            if (!whenReady || !isNotThereYet(error)) throw error;
            notThere.push(name);
          }
        }
        if (whenReady) {
          const parameters = await parametersOf(query.actionId);
          if (!newest()) return;
          const missing = [
            ...notThere,
            ...missingArguments(parameters ?? [], actionArgs).filter((n) => !notThere.includes(n)),
          ];
          if (missing.length > 0) {
            setQuery(queryId, { ...idle, status: 'waiting', waitingFor: missing, page: pageNow });
            return;
          }
          if (previous.status === 'waiting') setQuery(queryId, { ...idle, status: 'loading', page: pageNow });
        }
        if (query.paging) {
          actionArgs[query.paging.limitParameter] = query.paging.pageSize;
          actionArgs[query.paging.offsetParameter] = pageNow * query.paging.pageSize;
        }
        const outcome = clicked
          ? await confirmedRun(where, query.actionId, actionArgs)
          : await runViewAction(where, query.actionId, actionArgs);
        if (!newest()) return;
        if (outcome.kind === 'review') {
          setQuery(queryId, { ...idle, status: 'review', review: outcome.review, page: pageNow });
          return;
        }
        const { rows, result } = resultOf(outcome.execution);
        let shownRows = rows;
        let shownResult = result;
        if (query.transformer) {
          shownResult = evaluate(query.transformer, { ...context(), result, rows });
          if (Array.isArray(shownResult)) shownRows = shownResult as Row[];
          else if (shownResult && typeof shownResult === 'object') shownRows = [shownResult as Row];
        }
        setQuery(queryId, {
          status: 'done',
          rows: shownRows,
          result: shownResult,
          execution: outcome.execution,
          page: pageNow,
          rowsPage: pageNow,
        });
      } catch (error) {
        if (newest()) setQuery(queryId, { ...idle, status: 'failed', error, page: pageNow });
      }
    },
    [definition, context, setQuery, where, confirmedRun, parametersOf],
  );

  const loadQueries = useCallback(
    (ids?: string[]) =>
      Promise.all(
        definition.queries
          .filter((q) => (ids ? ids.includes(q.id) : q.runOn === 'load'))
          .map((q) => runQuery(q.id, undefined, false, true)),
      ),
    [definition, runQuery],
  );

  // The load queries run once when the view opens and again only when its queries or its arguments
  // change in content. Keyed by content, not by identity: a new identity of the same arguments,
  // the environment's name arriving (a new confirm callback), StrictMode's second mount, an edit
  // of the layout in the builder, none of them is a reason to run again (issue 29: one open and
  // one search ran search-orders five times).
  const queriesKey = useMemo(() => JSON.stringify(definition.queries), [definition.queries]);
  const argsKey = useMemo(() => JSON.stringify(args), [args]);
  const loadQueriesRef = useRef(loadQueries);
  loadQueriesRef.current = loadQueries;
  const loadedFor = useRef<{ queries: string; args: string } | undefined>(undefined);
  /** An edited query's run is about to start: the waiting queries leave it to that run. */
  const loadPending = useRef(false);
  useEffect(() => {
    const before = loadedFor.current;
    if (before && before.queries === queriesKey && before.args === argsKey) return;
    const load = () => {
      loadedFor.current = { queries: queriesKey, args: argsKey };
      queriesRef.current = {};
      setQueries({});
      void loadQueriesRef.current();
    };
    // Opening and new arguments run at once; an edited query (the builder's preview, changed a key
    // at a time) runs once the typing pauses, not once per key.
    if (!before || before.queries === queriesKey) {
      load();
      return;
    }
    loadPending.current = true;
    const timer = setTimeout(() => {
      loadPending.current = false;
      load();
    }, editPause);
    return () => {
      loadPending.current = false;
      clearTimeout(timer);
    };
  }, [queriesKey, argsKey]);

  // A query that waits for its arguments runs as soon as a value it reads is there (a form's
  // defaults, a selected row), once; a query that already ran does not run again on a new value.
  const runQueryRef = useRef(runQuery);
  runQueryRef.current = runQuery;
  const definitionRef = useRef(definition);
  definitionRef.current = definition;
  /** Inputs changed but not yet settled: the queries reading them wait for the pause (below). */
  const pendingInputs = useRef(new Set<string>());
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new value is the reason to look again
  useEffect(() => {
    if (loadPending.current) return;
    const pendingReaders = new Set(queriesReading(definitionRef.current.queries, pendingInputs.current));
    for (const query of definitionRef.current.queries) {
      if (pendingReaders.has(query.id)) continue;
      if (queriesRef.current[query.id]?.status === 'waiting') {
        void runQueryRef.current(query.id, undefined, false, true);
      }
    }
  }, [values]);

  // Timers run their queries again while the view is open, like a refresh (unconfirmed: reading
  // actions only), at least 5 s apart (the schema's minimum).
  const timersKey = JSON.stringify(definition.timers ?? []);
  useEffect(() => {
    const timers = JSON.parse(timersKey) as NonNullable<VisualViewDefinition['timers']>;
    const handles = timers.map((timer) =>
      setInterval(() => void loadQueriesRef.current(timer.queries), Math.max(5, timer.everySeconds) * 1000),
    );
    return () => {
      for (const handle of handles) clearInterval(handle);
    };
  }, [timersKey]);

  const runEvents = useCallback(
    async (events: ViewEvent[], extra: Record<string, unknown> = {}): Promise<EventOutcome> => {
      let last: EventOutcome = { kind: 'done' };
      for (const event of events) {
        try {
          if (event.type === 'runQuery') {
            await runQuery(event.query, 0, true);
            const state = queriesRef.current[event.query];
            if (state?.status === 'failed') return { kind: 'failed', error: state.error };
            if (state?.status === 'review' && state.review) return { kind: 'review', review: state.review };
          } else if (event.type === 'refresh') {
            await loadQueries(event.queries);
          } else if (event.type === 'runAction') {
            const ctx = context(extra);
            const actionArgs: Record<string, unknown> = {};
            for (const [name, expression] of Object.entries(event.arguments ?? {})) {
              actionArgs[name] = bindValue(expression, ctx);
            }
            const question = event.confirm === undefined ? undefined : templateText(event.confirm, ctx);
            const outcome: ActionOutcome = await confirmedRun(where, event.actionId, actionArgs, question);
            if (outcome.kind === 'review') return { kind: 'review', review: outcome.review };
            last = { kind: 'done', actionRan: true };
            if (event.onSuccess?.length) {
              const after = await runEvents(event.onSuccess, {
                ...extra,
                result: resultOf(outcome.execution).result,
              });
              if (after.kind !== 'done') return after;
            }
          } else if (event.type === 'setState') {
            const value = bindValue(event.value, context(extra));
            stateRef.current = { ...stateRef.current, [event.name]: value };
            setStateVars(stateRef.current);
          } else if (event.type === 'openModal') {
            const id = event.modal;
            setOpenModals((open) => (open.includes(id) ? open : [...open, id]));
          } else if (event.type === 'closeModal') {
            closeModal(event.modal);
          } else if (event.type === 'toast') {
            toast(templateText(event.message, context(extra)), event.kind ?? 'success');
          } else if (event.type === 'navigate') {
            const ctx = context(extra);
            const query = new URLSearchParams();
            for (const [name, expression] of Object.entries(event.arguments ?? {})) {
              const value = bindValue(expression, ctx);
              query.set(name, typeof value === 'object' ? JSON.stringify(value) : String(value ?? ''));
            }
            const search = query.size > 0 ? `?${query.toString()}` : '';
            if ('view' in event.to) go(href(`/views/${encodeURIComponent(event.to.view)}${search}`));
            else if ('action' in event.to)
              go(href(`/actions/${encodeURIComponent(event.to.action)}${search}`));
            else {
              const raw = bindValue(event.to.url, ctx);
              const url = safeExternalUrl(raw);
              if (!url) throw new UnsafeUrl(String(raw));
              const target = new URL(url);
              for (const [k, v] of query) target.searchParams.set(k, v);
              // Another host than the allowed ones: the viewer sees the full address first.
              outside.open(target.href);
            }
          }
        } catch (error) {
          return { kind: 'failed', error };
        }
      }
      return last;
    },
    [context, loadQueries, runQuery, where, href, confirmedRun, outside, toast, closeModal],
  );

  const setValue = useCallback((componentId: string, value: unknown) => {
    valuesRef.current = { ...valuesRef.current, [componentId]: value };
    setValues(valuesRef.current);
  }, []);

  const setComponentState = useCallback((componentId: string, state: Record<string, unknown>) => {
    statesRef.current = {
      ...statesRef.current,
      [componentId]: { ...statesRef.current[componentId], ...state },
    };
    // A new values object: what reads `components` renders again and waiting queries look again.
    valuesRef.current = { ...valuesRef.current };
    setValues(valuesRef.current);
  }, []);

  // One timer per input: each change restarts it, so a pause in typing makes one run, not one per key.
  const inputTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const runEventsRef = useRef(runEvents);
  runEventsRef.current = runEvents;
  const changeInput = useCallback(
    (componentId: string, value: unknown, pause = editPause, onChange?: ViewEvent[]) => {
      pendingInputs.current.add(componentId);
      setValue(componentId, value);
      const timers = inputTimers.current;
      clearTimeout(timers.get(componentId));
      timers.set(
        componentId,
        setTimeout(() => {
          timers.delete(componentId);
          pendingInputs.current.delete(componentId);
          for (const id of queriesReading(definitionRef.current.queries, new Set([componentId]))) {
            const query = definitionRef.current.queries.find((q) => q.id === id);
            const status = queriesRef.current[id]?.status;
            // A manual query nobody ran yet stays manual; the others follow the input (page 1 again).
            if (query?.runOn === 'load' || (status !== undefined && status !== 'idle')) {
              void runQueryRef.current(id, 0, false, true);
            }
          }
          if (onChange?.length) void runEventsRef.current(onChange);
        }, pause),
      );
    },
    [setValue],
  );
  useEffect(() => {
    const timers = inputTimers.current;
    return () => {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    };
  }, []);

  const runtime = useMemo<ViewRuntime>(
    () => ({
      viewId,
      projectId,
      environmentId,
      definition,
      args,
      queries,
      values,
      setValue,
      setComponentState,
      state,
      openModals,
      closeModal,
      changeInput,
      context,
      bind: (expression, extra) => bindValue(expression, context(extra)),
      runQuery,
      runEvents,
      hrefOf: href,
    }),
    [
      viewId,
      projectId,
      environmentId,
      definition,
      args,
      queries,
      values,
      setValue,
      setComponentState,
      state,
      openModals,
      closeModal,
      changeInput,
      context,
      runQuery,
      runEvents,
      href,
    ],
  );
  return <RuntimeContext.Provider value={runtime}>{props.children}</RuntimeContext.Provider>;
}
