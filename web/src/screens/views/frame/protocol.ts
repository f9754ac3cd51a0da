/**
 * Messages between the console (host) and a code view's sandboxed frame (docs/views.md "Code
 * views"). The frame has an opaque origin, so both sides check the sender (`event.source`) and the
 * shape; the host also checks the channel id it gave the frame and the view's declared actions.
 */

export {
  viewFrameCsp as frameCsp,
  viewFramePath as framePath,
} from '../../../../../shared/http/console-policies.ts';

/** Host → frame. */
export type ToFrame =
  | {
      dogu: 1;
      type: 'init';
      channel: string;
      code: string;
      args: Record<string, unknown>;
      user: { id: string; email?: string; name?: string };
      actionIds: string[];
      locale: string;
    }
  | { dogu: 1; type: 'actionResult'; channel: string; callId: number; outcome: FrameActionOutcome };

export type FrameActionOutcome =
  | {
      ok: true;
      rows: Record<string, unknown>[];
      result: unknown;
      executionId: string;
      /** One entry per statement, as the execution has them (rows, value, title, status). */
      results: { title: string; status: string; rows: Record<string, unknown>[]; value?: unknown }[];
    }
  | { ok: true; review: { id: string } }
  | { ok: false; error: { code: string; title: string; detail: string } };

export type NavigateTarget = { view: string } | { action: string } | { url: string };

/** Frame → host. */
export type FromFrame =
  | { dogu: 1; type: 'ready' }
  | { dogu: 1; type: 'heartbeat'; channel: string }
  | { dogu: 1; type: 'rendered'; channel: string }
  | { dogu: 1; type: 'resize'; channel: string; height: number }
  | { dogu: 1; type: 'error'; channel: string; message: string }
  | {
      dogu: 1;
      type: 'runAction';
      channel: string;
      callId: number;
      actionId: string;
      arguments: Record<string, unknown>;
    }
  | { dogu: 1; type: 'navigate'; channel: string; to: NavigateTarget; arguments: Record<string, unknown> };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The message if it is a well-formed frame message, else undefined (ignored). */
export function parseFromFrame(data: unknown): FromFrame | undefined {
  if (!isRecord(data) || data.dogu !== 1 || typeof data.type !== 'string') return undefined;
  if (data.type === 'ready') return { dogu: 1, type: 'ready' };
  if (typeof data.channel !== 'string') return undefined;
  const channel = data.channel;
  switch (data.type) {
    case 'heartbeat':
    case 'rendered':
      return { dogu: 1, type: data.type, channel };
    case 'resize':
      return typeof data.height === 'number' && Number.isFinite(data.height)
        ? { dogu: 1, type: 'resize', channel, height: data.height }
        : undefined;
    case 'error':
      return { dogu: 1, type: 'error', channel, message: String(data.message ?? '').slice(0, 2000) };
    case 'runAction':
      if (typeof data.callId !== 'number' || typeof data.actionId !== 'string') return undefined;
      if (data.arguments !== undefined && !isRecord(data.arguments)) return undefined;
      return {
        dogu: 1,
        type: 'runAction',
        channel,
        callId: data.callId,
        actionId: data.actionId,
        arguments: (data.arguments as Record<string, unknown>) ?? {},
      };
    case 'navigate': {
      const to = data.to;
      if (!isRecord(to)) return undefined;
      const key = ['view', 'action', 'url'].find((k) => typeof to[k] === 'string');
      if (!key) return undefined;
      if (data.arguments !== undefined && !isRecord(data.arguments)) return undefined;
      return {
        dogu: 1,
        type: 'navigate',
        channel,
        to: { [key]: to[key] } as NavigateTarget,
        arguments: (data.arguments as Record<string, unknown>) ?? {},
      };
    }
    default:
      return undefined;
  }
}
