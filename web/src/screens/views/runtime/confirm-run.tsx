/**
 * Views cannot act for their viewer without the viewer (docs/views.md): the server refuses a view's run
 * of a data-changing action unless it carries `confirm: true` (409 `confirmation_required`). So a query
 * that runs on load or on refresh simply fails in place; a run the viewer started with a click (a
 * button's runAction or runQuery event, or a code view's `dogu.run`) asks the viewer first, naming the
 * action, the environment and the arguments, and is sent again confirmed only if they agree.
 */
import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { ConfirmRunDialog, needsConfirmation, type RunToConfirm } from '../../actions/ConfirmRunDialog.tsx';
import type { QuestionRefusal } from '../code/frame-limits.ts';
import { type ActionOutcome, runViewAction } from '../view-api.ts';

type Ask = (subject: Omit<RunToConfirm, 'environmentName'>) => Promise<boolean>;

const ConfirmContext = createContext<Ask | undefined>(undefined);

/** The viewer said no (or, with `refused`, was not asked: the view asked too much): nothing ran. */
export class RunDeclined extends Error {
  readonly refused: QuestionRefusal | undefined;
  constructor(actionName: string, refused?: QuestionRefusal) {
    super(`Not run: ${actionName} changes data and was not confirmed.`);
    this.name = 'RunDeclined';
    this.refused = refused;
  }
}

/**
 * What a code view's questions go through (code/frame-limits.ts): `begin` refuses a question
 * (nothing is asked, nothing runs), `answered` hears the viewer's answer.
 */
export interface QuestionGate {
  begin(): QuestionRefusal | undefined;
  answered(agreed: boolean): void;
}

/** `environmentName`: what the dialog calls the environment the view runs in. */
export function ConfirmRunProvider({
  environmentName,
  children,
}: {
  environmentName: string;
  children: ReactNode;
}) {
  const [subject, setSubject] = useState<RunToConfirm>();
  const resolver = useRef<(answer: boolean) => void>(undefined);
  const ask = useCallback<Ask>(
    (next) =>
      new Promise<boolean>((resolve) => {
        resolver.current?.(false);
        resolver.current = resolve;
        setSubject({ ...next, environmentName });
      }),
    [environmentName],
  );
  const answer = (value: boolean) => {
    resolver.current?.(value);
    resolver.current = undefined;
    setSubject(undefined);
  };
  return (
    <ConfirmContext.Provider value={ask}>
      {children}
      <ConfirmRunDialog subject={subject} onConfirm={() => answer(true)} onCancel={() => answer(false)} />
    </ConfirmContext.Provider>
  );
}

/**
 * Runs an action from a view for a click: unconfirmed first (a reading action just runs); if the server
 * says it changes data, asks the viewer and sends it again confirmed. Without a provider (or for runs
 * nobody clicked) nothing is asked and the refusal stands.
 */
export function useConfirmedRun() {
  const ask = useContext(ConfirmContext);
  return useMemo(
    () =>
      async (
        where: { projectId: string; environmentId: string; viewId: string },
        actionId: string,
        args: Record<string, unknown>,
        /** The author's question (runAction `confirm`): asked before anything is sent, then sent confirmed. */
        question?: string,
        gate?: QuestionGate,
      ): Promise<ActionOutcome> => {
        const asked = async (subject: Omit<RunToConfirm, 'environmentName'>) => {
          const refused = gate?.begin();
          if (refused) throw new RunDeclined(subject.actionName, refused);
          const agreed = await ask!(subject);
          gate?.answered(agreed);
          if (!agreed) throw new RunDeclined(subject.actionName);
        };
        if (question !== undefined && ask) {
          await asked({ actionName: actionId, arguments: args, message: question });
          return runViewAction(where, actionId, args, { confirm: true });
        }
        try {
          return await runViewAction(where, actionId, args);
        } catch (error) {
          if (!ask || !needsConfirmation(error)) throw error;
          const body = (error as { body: { actionName?: string } }).body;
          await asked({ actionName: body.actionName ?? actionId, arguments: args });
          return runViewAction(where, actionId, args, { confirm: true });
        }
      },
    [ask],
  );
}
