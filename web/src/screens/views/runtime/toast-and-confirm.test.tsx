// @vitest-environment jsdom
/**
 * A `toast` event shows its message (a template) after the action before it succeeded; a runAction
 * with the author's `confirm` question asks first, sends nothing when declined, and sends the run
 * confirmed when agreed (issue 29).
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonBodyOf, pathOf, serveApi } from '../../../test-support/api-server.ts';
import { demoWorkspace, InConsole } from '../../../test-support/console.tsx';
import type { ViewEvent, VisualViewDefinition } from '../view-api.ts';
import { ConfirmRunProvider } from './confirm-run.tsx';
import { ViewRenderer } from './ViewRenderer.tsx';

afterEach(cleanup);

/** The console's live region of short messages. */
const toasts = () => document.querySelector('.toasts')?.textContent ?? '';

let posted: { actionId: string; body: Record<string, unknown> }[] = [];
beforeEach(() => {
  posted = [];
});

serveApi(async (request, response) => {
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const path = pathOf(request);
  const match =
    /^\/public\/v1\/projects\/demo\/environments\/development\/actions\/([\w-]+)\/executions$/.exec(path);
  if (!match) return reply(404, { title: 'Not found' });
  const body = await jsonBodyOf(request);
  posted.push({ actionId: match[1]!, body });
  return reply(200, {
    id: `exe_${posted.length}`,
    status: 'succeeded',
    results: [{ status: 'succeeded', title: 'r', columns: [], rows: [{ n: 7 }], rowCount: 1, messages: [] }],
  });
});

function view(events: ViewEvent[]) {
  const definition = {
    kind: 'visual',
    parameters: [],
    queries: [],
    layout: {
      id: 'root',
      type: 'grid',
      columns: 1,
      children: [{ id: 'b1', type: 'button', label: 'Ship', events }],
    },
  } as VisualViewDefinition;
  return (
    <InConsole
      session={{ user: { kind: 'user', id: 'usr_1', email: 'ops@dogu.local' }, signOut: async () => {} }}
    >
      <ConfirmRunProvider environmentName="Development">
        <ViewRenderer
          viewId="v1"
          definition={definition}
          args={{}}
          user={{ id: 'usr_1', email: 'ops@dogu.local' }}
          projectId="demo"
          environmentId="development"
          href={demoWorkspace.href}
        />
      </ConfirmRunProvider>
    </InConsole>
  );
}

describe('toast after an action', () => {
  it('shows the message with the action result, only after the action succeeded', async () => {
    render(
      view([
        {
          type: 'runAction',
          actionId: 'ship-order',
          arguments: { id: '5' },
          onSuccess: [{ type: 'toast', message: 'Shipped order {{ result[0].n }}' }],
        },
      ]),
    );
    expect(toasts()).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Ship' }));
    await waitFor(() => expect(toasts()).toContain('Shipped order 7'));
    expect(posted).toHaveLength(1);
  });
});

describe("the author's confirmation", () => {
  const events: ViewEvent[] = [
    {
      type: 'runAction',
      actionId: 'ship-order',
      arguments: { id: '5' },
      confirm: 'Ship order {{ 2 + 3 }} now?',
    },
    { type: 'toast', message: 'Done', kind: 'info' },
  ];

  it('sends nothing when declined', async () => {
    render(view(events));
    fireEvent.click(screen.getByRole('button', { name: 'Ship' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Ship order 5 now?');
    expect(dialog.textContent).toContain('ship-order');
    expect(dialog.textContent).toContain('Development');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(posted).toEqual([]);
    expect(toasts()).toBe('');
  });

  it('sends the run confirmed once agreed, then the next event runs', async () => {
    render(view(events));
    fireEvent.click(screen.getByRole('button', { name: 'Ship' }));
    await screen.findByRole('dialog');
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(toasts()).toContain('Done'));
    expect(posted).toEqual([
      { actionId: 'ship-order', body: { arguments: { id: 5 }, source: { viewId: 'v1' }, confirm: true } },
    ]);
  });
});
