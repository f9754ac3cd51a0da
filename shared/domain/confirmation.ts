/** Confirmations of data-changing runs (docs/governance.md, decision 0091). */
import { effectOf } from './action-effect.ts';
import type { ActionInput } from './definitions/action.ts';
import { DoguError } from './errors.ts';

/**
 * A run of a data-changing action from the console or a view needs the person's confirmation, which
 * the console asks for (naming action, environment and arguments) and sends as `confirm: true`. The
 * server checks it, so a view can never run such an action for its viewer unasked; the public API and
 * cron jobs are unchanged.
 */
export function requireConfirmation(
  action: ActionInput,
  environmentId: string,
  args: Record<string, unknown>,
  confirmed: boolean | undefined,
): void {
  if (confirmed || effectOf(action) !== 'changes') return;
  throw new DoguError(
    'state_conflict',
    `Action '${action.id}' changes data: run it in environment '${environmentId}' only after confirming ` +
      `(the console asks, naming the action, the environment and the arguments, and sends "confirm": true).`,
    {
      extra: {
        reason: 'confirmation_required',
        actionId: action.id,
        actionName: action.name,
        environmentId,
        arguments: args,
      },
    },
  );
}
