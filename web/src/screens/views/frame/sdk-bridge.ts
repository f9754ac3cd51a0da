/**
 * The SDK's one way out of the frame: frame-main.tsx connects it to the console's messages. Every
 * SDK part that talks to the console goes through here (no part imports another to reach it).
 */
import type { FrameActionOutcome, FrameLibrary } from './protocol.ts';

export interface Bridge {
  send(message: Record<string, unknown>): void;
  call(actionId: string, args: Record<string, unknown>, confirm?: string): Promise<FrameActionOutcome>;
  /** A library's code, sent by the console on first use (decision 0225). */
  library(name: FrameLibrary): Promise<string>;
}

let bridge: Bridge | undefined;
export function connect(next: Bridge): void {
  bridge = next;
}

export function connected(): Bridge {
  if (!bridge) throw new Error('The view is not connected.');
  return bridge;
}

/** The viewer's language, from the console (`en` or `ja`), for the SDK's own few words. */
export const locale = { current: 'en' };
