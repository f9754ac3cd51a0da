// @vitest-environment jsdom
/**
 * The action screen against a real HTTP server that plays the API: "Run as a job" posts the same
 * arguments with `async: true` and opens the execution's status screen; a review-gated action
 * sends the requester's comment and offers no job; the links lead to the action's other screens.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActionDefinition } from '../../api/types.ts';
import { jsonBodyOf, pathOf, serveApi } from '../../test-support/api-server.ts';
import { InConsole } from '../../test-support/console.tsx';
import { ActionScreen } from './ActionScreen.tsx';

const actions: Record<string, ActionDefinition> = {
  'find-orders': {
    id: 'find-orders',
    name: 'Find orders',
    kind: 'sql',
    dataSourceId: 'shop',
    parameters: [{ name: 'limit', kind: 'number', label: 'Limit', integer: true }],
    // Reads only, so a run asks no confirmation (set by its author here; the screen shows it).
    effect: 'reads',
    version: 3,
  },
  'refund-order': {
    id: 'refund-order',
    name: 'Refund order',
    kind: 'sql',
    dataSourceId: 'shop',
    parameters: [{ name: 'order_id', kind: 'number', label: 'Order id', integer: true, required: true }],
    review: { required: true },
    version: 1,
  },
};

/** Every POST the server received: path and parsed body. */
let posted: { path: string; body: Record<string, unknown> }[] = [];

serveApi(async (request, response) => {
  const path = pathOf(request);
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const definition = /^\/api\/v1\/projects\/demo\/actions\/([\w-]+)$/.exec(path);
  if (request.method === 'GET' && definition) {
    const action = actions[definition[1]!];
    return action ? reply(200, action) : reply(404, { title: 'Not found' });
  }
  const execute =
    /^\/public\/v1\/projects\/demo\/environments\/development\/actions\/([\w-]+)\/executions$/.exec(path);
  if (request.method === 'POST' && execute) {
    const body = await jsonBodyOf(request);
    posted.push({ path, body });
    if (execute[1] === 'refund-order') {
      return reply(202, { reviewRequest: { id: 'rev_7', status: 'pending' }, links: { self: '/rev_7' } });
    }
    const limit = (body.arguments as { limit?: number } | undefined)?.limit;
    if (limit !== undefined && limit > 1000) {
      return reply(422, {
        title: 'Invalid arguments',
        code: 'argument_invalid',
        errors: [{ pointer: '#/arguments/limit', detail: 'limit must be at most 1000.' }],
      });
    }
    if (body.async === true) {
      return reply(202, { execution: { id: 'exe_42', status: 'queued', actionId: 'find-orders' } });
    }
    return reply(200, { id: 'exe_41', status: 'succeeded', actionId: 'find-orders', results: [] });
  }
  // Versions and anything else: absent, as for an action never published.
  return reply(404, { title: 'Not found' });
});
beforeEach(() => {
  posted = [];
  window.history.replaceState(null, '', '/p/demo/e/development/actions');
});
afterEach(cleanup);

function renderScreen(actionId: string) {
  const session = {
    user: { kind: 'user' as const, id: 'usr_1', email: 'ops@example.com', name: 'Ops' },
    signOut: async () => {},
  };
  render(
    <InConsole session={session}>
      <ActionScreen params={{ actionId }} />
    </InConsole>,
  );
}

describe('action screen', () => {
  it('Run as a job posts the same arguments with async: true and opens the execution screen', async () => {
    renderScreen('find-orders');
    await screen.findByRole('heading', { name: 'Find orders' });
    expect(screen.queryByLabelText(/Comment/)).toBeNull();
    fireEvent.change(screen.getByLabelText(/Limit/), { target: { value: '7' } });

    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.body).toEqual({ arguments: { limit: 7 }, via: 'console' });

    fireEvent.click(screen.getByRole('button', { name: 'Run as a job' }));
    await waitFor(() => expect(window.location.pathname).toBe('/p/demo/e/development/executions/exe_42'));
    expect(posted).toHaveLength(2);
    expect(posted[1]!.path).toBe(
      '/public/v1/projects/demo/environments/development/actions/find-orders/executions',
    );
    expect(posted[1]!.body).toEqual({ arguments: { limit: 7 }, async: true, via: 'console' });
  });

  it("Run as a job refused with 422 shows the API's message at the input and stays on the screen", async () => {
    renderScreen('find-orders');
    await screen.findByRole('heading', { name: 'Find orders' });
    fireEvent.change(screen.getByLabelText(/Limit/), { target: { value: '5000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run as a job' }));
    await waitFor(() => expect(screen.getByLabelText(/Limit/).getAttribute('aria-invalid')).toBe('true'));
    const errorId = screen.getByLabelText(/Limit/).getAttribute('aria-describedby')!.split(' ').at(-1)!;
    expect(document.getElementById(errorId)?.textContent).toBe('limit must be at most 1000.');
    expect(posted.map((p) => p.body)).toEqual([{ arguments: { limit: 5000 }, async: true, via: 'console' }]);
    expect(window.location.pathname).toBe('/p/demo/e/development/actions');
  });

  it('a number that breaks its rules is named while typing, never sent, and the message goes once fixed', async () => {
    renderScreen('find-orders');
    await screen.findByRole('heading', { name: 'Find orders' });
    const limit = screen.getByLabelText(/Limit/) as HTMLInputElement;
    const message = () => {
      const id = limit.getAttribute('aria-describedby')?.split(' ').at(-1);
      return limit.getAttribute('aria-invalid') === 'true' && id
        ? document.getElementById(id)?.textContent
        : null;
    };
    fireEvent.change(limit, { target: { value: '2.5' } });
    expect(message()).toBe('2.5 is not a whole number; this parameter takes whole numbers only.');
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    fireEvent.change(limit, { target: { value: '2.5x' } });
    expect(limit.value).toBe('2.5x');
    expect(message()).toBe('Enter a number.');
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    expect(posted).toEqual([]);
    fireEvent.change(limit, { target: { value: '3' } });
    expect(message()).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.body).toEqual({ arguments: { limit: 3 }, via: 'console' });
  });

  it('a review-gated action sends the comment with the request and offers no job', async () => {
    renderScreen('refund-order');
    await screen.findByRole('heading', { name: 'Refund order' });
    expect(screen.queryByRole('button', { name: 'Run as a job' })).toBeNull();
    // It says to press the button the screen has, not a Run button it does not have.
    expect(document.querySelector('.empty-state')?.textContent).toContain('press Request review');
    expect(document.querySelector('.empty-state')?.textContent).not.toContain('press Run');
    fireEvent.change(screen.getByLabelText(/Order id/), { target: { value: '1001' } });
    fireEvent.change(screen.getByLabelText(/Comment/), { target: { value: '  Customer called twice.  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Request review' }));
    // A refund changes data (no statements to judge: changes), so the request is confirmed first.
    expect(posted).toEqual([]);
    fireEvent.click(await screen.findByRole('button', { name: 'Run and change data' }));

    // The notice, and the short status the live region says.
    expect(await screen.findAllByText('Review requested')).toHaveLength(2);
    expect(posted).toEqual([
      {
        path: '/public/v1/projects/demo/environments/development/actions/refund-order/executions',
        body: {
          arguments: { order_id: 1001 },
          via: 'console',
          confirm: true,
          comment: 'Customer called twice.',
        },
      },
    ]);
    expect(screen.getByRole('link', { name: 'Open review request rev_7' }).getAttribute('href')).toBe(
      '/p/demo/e/development/reviews/rev_7',
    );
    // The comment went with that request; the next one starts without it.
    expect((screen.getByLabelText(/Comment/) as HTMLTextAreaElement).value).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Request review' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Run and change data' }));
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[1]!.body).toEqual({ arguments: { order_id: 1001 }, via: 'console', confirm: true });
  });

  it("links to the action's versions, batch and editor screens", async () => {
    renderScreen('find-orders');
    await screen.findByRole('heading', { name: 'Find orders' });
    const related = screen.getByRole('navigation', { name: 'Related screens' });
    const links = [...related.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Versions', '/p/demo/e/development/actions/find-orders/versions'],
      ['Run as a batch', '/p/demo/e/development/actions/find-orders/batch'],
      ['Edit', '/p/demo/e/development/editor/actions/find-orders'],
    ]);
  });
});
