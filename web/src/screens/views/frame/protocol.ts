/**
 * Messages between the console (host) and a code view's sandboxed frame (docs/views.md "Code
 * views"). The frame has an opaque origin, so both sides check the sender (`event.source`) and the
 * shape; the host also checks the channel id it gave the frame and the view's declared actions.
 */

import { z } from 'zod';

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
  | { dogu: 1; type: 'actionResult'; channel: string; callId: number; outcome: FrameActionOutcome }
  | { dogu: 1; type: 'library'; channel: string; name: FrameLibrary; source?: string; error?: string };

/** Libraries the frame loads only when a view uses them (the host sends their code; decision 0225). */
export const frameLibraries = ['chart'] as const;
export type FrameLibrary = (typeof frameLibraries)[number];

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
      /** The view's own question, asked by the console before the run (decision 0227). */
      confirm?: string;
    }
  | ({ dogu: 1; type: 'toast'; channel: string } & z.infer<typeof toastShape>)
  | { dogu: 1; type: 'library'; channel: string; name: FrameLibrary }
  | ({ dogu: 1; type: 'exportCsv'; channel: string } & z.infer<typeof exportCsvShape>)
  | { dogu: 1; type: 'navigate'; channel: string; to: NavigateTarget; arguments: Record<string, unknown> };

/** Longest toast text and author's question the console shows (longer ones are refused). */
export const toastMaxLength = 300;
export const confirmMaxLength = 500;
/** What one CSV export may carry: a table's rows as the view shows them. */
export const exportMaxRows = 10_000;
export const exportMaxColumns = 100;

const toastShape = z.object({
  message: z.string().trim().min(1).max(toastMaxLength),
  kind: z.enum(['success', 'info', 'error']).default('success'),
});

const exportCsvShape = z.object({
  // A file name, not a path: letters, digits, spaces, dots, dashes and underscores.
  fileName: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[\p{L}\p{N} ._-]+$/u),
  columns: z
    .array(z.object({ field: z.string().min(1).max(200), label: z.string().max(200).optional() }))
    .min(1)
    .max(exportMaxColumns),
  rows: z.array(z.record(z.string(), z.unknown())).max(exportMaxRows),
});

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
      if (data.confirm !== undefined) {
        if (typeof data.confirm !== 'string') return undefined;
        if (!data.confirm.trim() || data.confirm.length > confirmMaxLength) return undefined;
      }
      return {
        dogu: 1,
        type: 'runAction',
        channel,
        callId: data.callId,
        actionId: data.actionId,
        arguments: (data.arguments as Record<string, unknown>) ?? {},
        ...(typeof data.confirm === 'string' ? { confirm: data.confirm.trim() } : {}),
      };
    case 'toast': {
      const parsed = toastShape.safeParse(data);
      return parsed.success ? { dogu: 1, type: 'toast', channel, ...parsed.data } : undefined;
    }
    case 'library':
      return (frameLibraries as readonly unknown[]).includes(data.name)
        ? { dogu: 1, type: 'library', channel, name: data.name as FrameLibrary }
        : undefined;
    case 'exportCsv': {
      const parsed = exportCsvShape.safeParse(data);
      return parsed.success ? { dogu: 1, type: 'exportCsv', channel, ...parsed.data } : undefined;
    }
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
