/**
 * The AWS sandbox function cannot call back into Dogu (its role grants nothing, it holds no
 * credentials), so `actions.run` works by replay (decision 0039): the function runs the script with
 * the answers known so far; at the first call without one it stops and names the call; the caller
 * runs that action and invokes the function again with one more answer. Each replayed call must be
 * the same action with the same arguments as recorded.
 */
import type { ScriptOutcome } from '../../domain/ports.ts';
import { type QuickJsRequest, runInQuickJs } from './quickjs-run.ts';

export type ReplayAnswer = { value: unknown } | { error: string };

export interface ReplayRequest extends QuickJsRequest {
  /** Earlier calls of this run and their answers, in call order. */
  calls: { actionId: string; args: Record<string, unknown>; answer: ReplayAnswer }[];
}

export type ReplayResponse =
  | { kind: 'finished'; outcome: ScriptOutcome }
  | { kind: 'call'; actionId: string; args: Record<string, unknown> };

export async function runReplaying(request: ReplayRequest): Promise<ReplayResponse> {
  let next = 0;
  let wanted: { actionId: string; args: Record<string, unknown> } | undefined;
  let suspend: () => void = () => {};
  const suspended = new Promise<void>((resolve) => {
    suspend = resolve;
  });
  const outcome = await runInQuickJs(
    request,
    async (actionId, args) => {
      const known = request.calls[next++];
      if (!known) {
        wanted = { actionId, args };
        suspend();
        return new Promise(() => {});
      }
      if (known.actionId !== actionId || JSON.stringify(known.args) !== JSON.stringify(args)) {
        throw new Error(
          'The script asked for a different action on replay; scripts that call actions must not depend on time or chance before a call.',
        );
      }
      if ('error' in known.answer) throw new Error(known.answer.error);
      return known.answer.value;
    },
    suspended,
  );
  return wanted ? { kind: 'call', ...wanted } : { kind: 'finished', outcome };
}
