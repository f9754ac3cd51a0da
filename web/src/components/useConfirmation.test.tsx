// @vitest-environment jsdom
/**
 * A confirmed step: asking opens the dialog about that subject, confirming runs the step once and
 * closes, a failure reaches the screen's handler and still closes, cancelling runs nothing.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { I18nProvider } from '../i18n/index.tsx';
import { Button } from './Button.tsx';
import { Dialog } from './Dialog.tsx';
import { useConfirmation } from './useConfirmation.ts';

afterEach(cleanup);

function Harness({ step }: { step: (name: string) => Promise<void> }) {
  const [failure, setFailure] = useState<unknown>();
  const deletion = useConfirmation(step, setFailure);
  return (
    <I18nProvider language="en">
      <Button onClick={() => deletion.ask('orders')}>Delete orders</Button>
      <Dialog {...deletion.dialog} title={`Delete ${deletion.subject ?? ''}?`} danger confirmLabel="Delete" />
      <output data-testid="failure">{failure instanceof Error ? failure.message : ''}</output>
    </I18nProvider>
  );
}

const dialog = () => screen.getByRole('dialog', { name: 'Delete orders?' });

describe('useConfirmation', () => {
  it('runs the step with the subject once confirmed, then closes', async () => {
    const done: string[] = [];
    render(<Harness step={async (name) => void done.push(name)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete orders' }));
    expect(done).toEqual([]);
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(done).toEqual(['orders']);
  });

  it('hands a failure to the screen and still closes', async () => {
    render(
      <Harness
        step={async () => {
          throw new Error('orders is in use');
        }}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete orders' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByTestId('failure').textContent).toBe('orders is in use'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('cancelling runs nothing', async () => {
    const done: string[] = [];
    render(<Harness step={async (name) => void done.push(name)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete orders' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(done).toEqual([]);
  });
});
