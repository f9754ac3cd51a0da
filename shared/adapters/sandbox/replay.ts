/**
 * The AWS sandbox function cannot call back into Dogu (its role grants nothing, it holds no
 * credentials), so `actions.run` works by replay (decision 0039): the function runs the script with
 * the answers known so far; at the first call without one it stops and names the call; the caller
 * runs that action (or database operation) and invokes the function again with one more answer. Each replayed call must be
 * the same action with the same arguments as recorded.
 */
import type { ScriptOutcome } from '../../domain/ports.ts';
import { type HostRequest, type QuickJsRequest, runInQuickJs } from './quickjs-run.ts';

export type ReplayAnswer = { value: unknown } | { error: string };

export interface ReplayRequest extends QuickJsRequest {
  /** Earlier calls of this run and their answers, in call order. */
  calls: { request: HostRequest; answer: ReplayAnswer }[];
}

export type ReplayResponse =
  | { kind: 'finished'; outcome: ScriptOutcome }
  | { kind: 'call'; request: HostRequest };

export async function runReplaying(request: ReplayRequest): Promise<ReplayResponse> {
  let next = 0;
  let wanted: HostRequest | undefined;
  let suspend: () => void = () => {};
  const suspended = new Promise<void>((resolve) => {
    suspend = resolve;
  });
  const outcome = await runInQuickJs(
    request,
    async (hostRequest) => {
      const known = request.calls[next++];
      if (!known) {
        wanted = hostRequest;
        suspend();
        return new Promise(() => {});
      }
      if (JSON.stringify(known.request) !== JSON.stringify(hostRequest)) {
        throw new Error(
          'The script asked for a different action on replay; scripts that call actions must not depend on time or chance before a call.',
        );
      }
      if ('error' in known.answer) throw new Error(known.answer.error);
      return known.answer.value;
    },
    suspended,
  );
  return wanted ? { kind: 'call', request: wanted } : { kind: 'finished', outcome };
}
