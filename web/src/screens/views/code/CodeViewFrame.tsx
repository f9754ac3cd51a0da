/**
 * A code view on screen: its compiled module runs in a sandboxed iframe (opaque origin, no
 * network; decision 0048) and talks to the console only by messages. This side checks each
 * message's sender, channel and shape, runs only the actions the view declared, each through the
 * execution endpoint with the viewer's own session, and watches the frame's heartbeat: a view
 * whose code loops is removed and says so. A crash is shown in place, the page keeps working.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../api/client.ts';
import type { ReviewRequested } from '../../../api/types.ts';
import { navigate as go } from '../../../app/router.tsx';
import { problemTitle } from '../../../components/ErrorBanner.tsx';
import { Button, useToast } from '../../../components/index.ts';
import { useLanguage, useT } from '../../../i18n/index.tsx';
import { type FrameActionOutcome, framePath, parseFromFrame, type ToFrame } from '../frame/protocol.ts';
import { downloadCsv, tableCsv } from '../runtime/components/table-csv.ts';
import { type QuestionGate, RunDeclined, useConfirmedRun } from '../runtime/confirm-run.tsx';
import { useOutsideHosts } from '../runtime/outside-hosts.tsx';
import { ViewReviewNotice } from '../runtime/ReviewNotice.tsx';
import { safeExternalUrl } from '../runtime/runtime.tsx';
import { problemText } from '../runtime/ViewProblem.tsx';
import { resultOf } from '../view-api.ts';
import { loadFrameLibrary } from './frame-libraries.ts';
import { declineLimit, exportLimit, questionGate, slidingWindow, toastLimit } from './frame-limits.ts';

/** No heartbeat for this long after the view started: it is stopped (an endless loop). */
export const heartbeatTimeoutMs = 3000;

export interface CodeViewFrameProps {
  viewId: string;
  code: string;
  actionIds: string[];
  args: Record<string, unknown>;
  user: { id: string; email?: string; name?: string };
  projectId: string;
  environmentId: string;
  href(path: string): string;
}

type Status = { kind: 'starting' } | { kind: 'running' } | { kind: 'stopped'; reason: 'loop' | 'navigated' };

export function CodeViewFrame(props: CodeViewFrameProps) {
  const t = useT();
  const { language } = useLanguage();
  const frame = useRef<HTMLIFrameElement>(null);
  const [generation, setGeneration] = useState(0);
  const [status, setStatus] = useState<Status>({ kind: 'starting' });
  const [errors, setErrors] = useState<string[]>([]);
  const [reviews, setReviews] = useState<ReviewRequested[]>([]);
  const [height, setHeight] = useState(240);
  // The server refused a run for the view's rate (429): until then, calls are refused here at once.
  const [runLimit, setRunLimit] = useState<RunLimit>();
  const runLimitRef = useRef<RunLimit | undefined>(undefined);
  const propsRef = useRef(props);
  propsRef.current = props;
  // A data-changing action runs only after the viewer confirms it (the server checks `confirm`).
  const confirmedRun = useConfirmedRun();
  const confirmedRunRef = useRef(confirmedRun);
  confirmedRunRef.current = confirmedRun;
  const outside = useOutsideHosts();
  const outsideRef = useRef(outside);
  outsideRef.current = outside;
  // The view's toasts are the console's (its live region, outside the frame): text only, rate-limited.
  const toast = useToast();
  const toastRef = useRef(toast);
  toastRef.current = toast;

  const send = useCallback((message: ToFrame) => {
    // The frame's origin is opaque ("null"), so no narrower target origin exists; the frame can
    // only hold our document (frame-src 'self' on the console, and a second load stops it).
    frame.current?.contentWindow?.postMessage(message, '*');
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new generation (reload) or new code restarts the frame
  useEffect(() => {
    const channel = crypto.randomUUID();
    let initialised = false;
    let lastBeat = 0;
    let loads = 0;
    setStatus({ kind: 'starting' });
    setErrors([]);
    setReviews([]);
    setRunLimit(undefined);
    runLimitRef.current = undefined;
    // Per frame: a reloaded view starts with fresh limits (decision 0228).
    const toasts = slidingWindow(toastLimit);
    const exports = slidingWindow(exportLimit);
    const questions = questionGate();
    const iframe = frame.current;
    const onLoad = () => {
      loads += 1;
      if (loads > 1) stop('navigated');
    };
    let stopped = false;
    const stop = (reason: 'loop' | 'navigated') => {
      if (stopped) return;
      stopped = true;
      initialised = false;
      if (iframe) iframe.src = 'about:blank';
      setStatus({ kind: 'stopped', reason });
    };
    iframe?.addEventListener('load', onLoad);

    const onMessage = async (event: MessageEvent) => {
      if (!iframe || event.source !== iframe.contentWindow || event.origin !== 'null') return;
      const message = parseFromFrame(event.data);
      if (!message) return;
      const current = propsRef.current;
      if (message.type === 'ready') {
        if (initialised) return;
        initialised = true;
        lastBeat = Date.now();
        send({
          dogu: 1,
          type: 'init',
          channel,
          code: current.code,
          args: current.args,
          user: current.user,
          actionIds: current.actionIds,
          locale: language,
        });
        return;
      }
      if (!initialised || message.channel !== channel) return;
      lastBeat = Date.now();
      switch (message.type) {
        case 'rendered':
          setStatus({ kind: 'running' });
          break;
        case 'resize':
          setHeight(Math.max(80, Math.min(5000, Math.ceil(message.height) + 4)));
          break;
        case 'error':
          setErrors((list) => [...list.slice(-4), message.message]);
          break;
        case 'navigate': {
          const query = new URLSearchParams();
          for (const [k, v] of Object.entries(message.arguments)) {
            query.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v ?? ''));
          }
          const search = query.size ? `?${query}` : '';
          if ('view' in message.to)
            go(current.href(`/views/${encodeURIComponent(message.to.view)}${search}`));
          else if ('action' in message.to)
            go(current.href(`/actions/${encodeURIComponent(message.to.action)}${search}`));
          else if ('url' in message.to) {
            const raw = message.to.url;
            const url = safeExternalUrl(raw);
            // Another host than the allowed ones: the viewer sees the full address first.
            if (url) outsideRef.current.open(url);
            else setErrors((list) => [...list.slice(-4), t('views.error.unsafeUrl', { url: raw })]);
          }
          break;
        }
        case 'toast':
          if (toasts.take()) toastRef.current(message.message, message.kind);
          break;
        case 'exportCsv':
          if (exports.take()) {
            const rows = message.rows;
            tableCsv(message.columns, rows).then(
              (text) => downloadCsv(message.fileName.replace(/\.csv$/i, ''), text),
              (error: unknown) => setErrors((list) => [...list.slice(-4), String(error)]),
            );
          }
          break;
        case 'library': {
          const name = message.name;
          const answer = await loadFrameLibrary(name).then(
            (source) => ({ source }),
            (error: unknown) => ({ error: t('views.code.libraryFailed', { detail: String(error) }) }),
          );
          if (initialised) send({ dogu: 1, type: 'library', channel, name, ...answer });
          break;
        }
        case 'runAction': {
          const outcome = await callAction(
            current,
            message.actionId,
            message.arguments,
            message.confirm,
            questions,
            t,
            confirmedRunRef.current,
            {
              current: () => runLimitRef.current,
              refused: (limit) => {
                runLimitRef.current = limit;
                setRunLimit(limit);
              },
            },
          );
          const reviewBody = outcome.reviewBody;
          if (reviewBody) setReviews((list) => [...list, reviewBody]);
          const { reviewBody: _, ...plain } = outcome as FrameActionOutcome & { reviewBody?: unknown };
          if (initialised) {
            send({
              dogu: 1,
              type: 'actionResult',
              channel,
              callId: message.callId,
              outcome: plain as FrameActionOutcome,
            });
          }
          break;
        }
        default:
          break;
      }
    };
    window.addEventListener('message', onMessage);
    const watchdog = window.setInterval(() => {
      // A hidden tab throttles the frame's timers: its silence then says nothing about a loop.
      if (document.hidden) {
        lastBeat = Date.now();
        return;
      }
      if (initialised && Date.now() - lastBeat > heartbeatTimeoutMs) stop('loop');
    }, 500);
    return () => {
      window.removeEventListener('message', onMessage);
      window.clearInterval(watchdog);
      iframe?.removeEventListener('load', onLoad);
    };
  }, [generation, props.code, send]);

  return (
    <div className="code-view">
      {errors.map((message, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: messages may repeat
        <div key={i} className="view-problem error-banner" role="alert">
          <div className="error-banner-text">{t('views.code.crashed', { detail: message })}</div>
        </div>
      ))}
      {runLimit ? (
        <div className="view-problem error-banner" role="alert">
          <div className="error-banner-text">
            {t('views.code.tooManyRuns', { limit: runLimit.perMinute })}
          </div>
        </div>
      ) : null}
      {reviews.map((review) => (
        <ViewReviewNotice key={review.reviewRequest.id} review={review} />
      ))}
      {status.kind === 'stopped' ? (
        <div className="view-problem error-banner" role="alert">
          <div className="error-banner-text">
            {status.reason === 'loop' ? t('views.code.stoppedLoop') : t('views.code.stoppedNavigation')}
          </div>
          <Button onClick={() => setGeneration((g) => g + 1)}>{t('views.code.reload')}</Button>
        </div>
      ) : null}
      <iframe
        key={`${generation}:${codeKey(props.code)}`}
        ref={frame}
        src={framePath}
        title={t('views.code.frameTitle')}
        sandbox="allow-scripts"
        referrerPolicy="no-referrer"
        className="code-view-frame"
        style={{ height, display: status.kind === 'stopped' ? 'none' : undefined }}
      />
    </div>
  );
}

/** A short digest of the code: new code means a new frame (the old one was initialised already). */
function codeKey(code: string): string {
  let h = 0;
  for (let i = 0; i < code.length; i++) h = (Math.imul(h, 31) + code.charCodeAt(i)) | 0;
  return `${code.length}-${h >>> 0}`;
}

/** The server's per-view run limit after it refused a run (decision 0151). */
interface RunLimit {
  perMinute: number;
  /** When runs may start again (ms since the epoch), from Retry-After. */
  until: number;
}

function tooManyRuns(t: ReturnType<typeof useT>, limit: RunLimit): FrameActionOutcome {
  const seconds = Math.max(1, Math.ceil((limit.until - Date.now()) / 1000));
  return {
    ok: false,
    error: {
      code: 'too_many_requests',
      title: t('views.code.tooManyRunsTitle'),
      detail: t('views.code.tooManyRunsDetail', { limit: limit.perMinute, seconds }),
    },
  };
}

/** Nothing ran: the viewer said no, or the view was not allowed to ask (decision 0228). */
function declined(t: ReturnType<typeof useT>, actionId: string, error: RunDeclined): FrameActionOutcome {
  if (error.refused === 'pending') {
    const detail = t('views.code.questionPending', { actionId });
    return {
      ok: false,
      error: { code: 'question_pending', title: t('views.code.questionPendingTitle'), detail },
    };
  }
  if (error.refused === 'declinedTooOften') {
    const detail = t('views.code.tooManyQuestions', { actionId, count: declineLimit.max });
    return {
      ok: false,
      error: { code: 'too_many_questions', title: t('views.code.tooManyQuestionsTitle'), detail },
    };
  }
  const detail = t('views.code.declined', { actionId });
  return { ok: false, error: { code: 'run_declined', title: t('views.code.declinedTitle'), detail } };
}

async function callAction(
  props: CodeViewFrameProps,
  actionId: string,
  args: Record<string, unknown>,
  question: string | undefined,
  gate: QuestionGate,
  t: ReturnType<typeof useT>,
  run: ReturnType<typeof useConfirmedRun>,
  limits: { current(): RunLimit | undefined; refused(limit: RunLimit): void },
): Promise<FrameActionOutcome & { reviewBody?: ReviewRequested }> {
  const known = limits.current();
  if (known && Date.now() < known.until) return tooManyRuns(t, known);
  if (!props.actionIds.includes(actionId)) {
    return {
      ok: false,
      error: {
        code: 'action_not_declared',
        title: t('views.code.notDeclaredTitle'),
        detail: t('views.code.notDeclared', { actionId }),
      },
    };
  }
  try {
    const outcome = await run(props, actionId, args, question, gate);
    if (outcome.kind === 'review') {
      return { ok: true, review: { id: outcome.review.reviewRequest.id }, reviewBody: outcome.review };
    }
    const { rows, result } = resultOf(outcome.execution);
    const results = outcome.execution.results.map((r) => ({
      title: r.title,
      status: r.status,
      rows: r.rows,
      ...(r.value !== undefined ? { value: r.value } : {}),
    }));
    return { ok: true, rows, result, results, executionId: outcome.execution.id };
  } catch (error) {
    if (error instanceof RunDeclined) return declined(t, actionId, error);
    // The per-view limit names itself (limitPerMinute); the per-client limit (decision 0053) does not.
    if (error instanceof ApiError && error.status === 429 && typeof error.body.limitPerMinute === 'number') {
      const seconds = Number(error.body.retryAfterSeconds ?? 60);
      const perMinute = error.body.limitPerMinute;
      const limit = { perMinute, until: Date.now() + Math.max(1, seconds) * 1000 };
      limits.refused(limit);
      return tooManyRuns(t, limit);
    }
    if (error instanceof ApiError) {
      return { ok: false, error: { code: error.code, title: problemTitle(t, error), detail: error.detail } };
    }
    return {
      ok: false,
      error: { code: 'action_failed', title: problemText(t, error), detail: (error as Error).message },
    };
  }
}
