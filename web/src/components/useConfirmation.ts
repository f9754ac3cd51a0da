/**
 * A step the user confirms first (delete, revoke, publish): `ask(subject)` opens the dialog,
 * confirming runs `act(subject)` and closes it whatever happened; a failure goes to `onError` so
 * the screen shows it in its banner. Spread `dialog` into `<Dialog>`.
 */
import { useState } from 'react';

export interface Confirmation<Subject> {
  /** What the open dialog is about; `undefined` while it is closed. */
  subject: Subject | undefined;
  ask(subject: Subject): void;
  /** True while `act` runs. */
  busy: boolean;
  dialog: { open: boolean; onConfirm(): void; onCancel(): void };
}

export function useConfirmation<Subject>(
  act: (subject: Subject) => Promise<void>,
  onError: (error: unknown) => void,
): Confirmation<Subject> {
  const [subject, setSubject] = useState<Subject>();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (subject === undefined) return;
    setBusy(true);
    try {
      await act(subject);
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
      setSubject(undefined);
    }
  };
  return {
    subject,
    ask: setSubject,
    busy,
    dialog: {
      open: subject !== undefined,
      onConfirm: () => void confirm(),
      onCancel: () => setSubject(undefined),
    },
  };
}
