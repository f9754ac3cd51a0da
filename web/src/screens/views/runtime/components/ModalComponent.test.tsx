// @vitest-environment jsdom
/**
 * A modal opened by an event (a row click) shows its children with the clicked row's values; it is
 * an accessible dialog: focus moves in, Escape closes it and focus returns to the row; a
 * `closeModal` event closes it too, and nothing of it is on the page while closed (issue 29).
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { demoWorkspace, InConsole } from '../../../../test-support/console.tsx';
import type { VisualViewDefinition } from '../../view-api.ts';
import { ViewRenderer } from '../ViewRenderer.tsx';

afterEach(cleanup);

const definition = {
  kind: 'visual',
  parameters: [],
  queries: [],
  layout: {
    id: 'root',
    type: 'grid',
    columns: 1,
    children: [
      {
        id: 't1',
        type: 'table',
        value: "[{ id: 1, name: 'Ada' }, { id: 2, name: 'Grace' }]",
        rowClick: [{ type: 'openModal', modal: 'edit1' }],
      },
      {
        id: 'edit1',
        type: 'modal',
        title: 'Order {{ components.t1.value.id }}',
        children: [
          { id: 'who', type: 'text', content: 'Customer {{ components.t1.value.name }}' },
          { id: 'done', type: 'button', label: 'Done', events: [{ type: 'closeModal', modal: 'edit1' }] },
        ],
      },
    ],
  },
} as VisualViewDefinition;

function view() {
  return (
    <InConsole
      session={{ user: { kind: 'user', id: 'usr_1', email: 'ops@dogu.local' }, signOut: async () => {} }}
    >
      <ViewRenderer
        viewId="v1"
        definition={definition}
        args={{}}
        user={{ id: 'usr_1', email: 'ops@dogu.local' }}
        projectId="demo"
        environmentId="development"
        href={demoWorkspace.href}
      />
    </InConsole>
  );
}

describe('modal', () => {
  it('opens on a row click with that row, closes on Escape and gives focus back', async () => {
    render(view());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByText(/Customer/)).toBeNull();
    const row = screen.getByRole('cell', { name: 'Grace' }).closest('tr')!;
    row.focus();
    fireEvent.click(row);
    const dialog = await screen.findByRole('dialog', { name: 'Order 2' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.textContent).toContain('Customer Grace');
    expect(dialog.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(row);
  });

  it('closes by a closeModal event from inside', async () => {
    render(view());
    fireEvent.click(screen.getByRole('cell', { name: 'Ada' }));
    const dialog = await screen.findByRole('dialog', { name: 'Order 1' });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    });
    expect(dialog.isConnected).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
