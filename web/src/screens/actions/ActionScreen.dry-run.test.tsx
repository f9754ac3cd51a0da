// @vitest-environment jsdom
/**
 * The dry-run button against a real HTTP server that plays the API: offered only when the action's
 * data-source kind declares `dryRun` (GET connector-kinds), it posts the arguments with
 * `dryRun: true` and shows the estimate the warehouse answered; other kinds get no button.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActionDefinition } from '../../api/types.ts';
import { jsonBodyOf, pathOf, serveApi } from '../../test-support/api-server.ts';
import { InConsole } from '../../test-support/console.tsx';
import { ActionScreen } from './ActionScreen.tsx';

const actions: Record<string, ActionDefinition> = {
  'daily-sales': {
    id: 'daily-sales',
    name: 'Daily sales',
    kind: 'sql',
    dataSourceId: 'warehouse',
    parameters: [{ name: 'day', kind: 'text', label: 'Day' }],
    version: 1,
  },
  'find-orders': {
    id: 'find-orders',
    name: 'Find orders',
    kind: 'sql',
    dataSourceId: 'shop',
    parameters: [],
    version: 1,
  },
};
const dataSources: Record<string, { id: string; kind: string }> = {
  warehouse: { id: 'warehouse', kind: 'bigquery' },
  shop: { id: 'shop', kind: 'postgresql' },
};
const estimate = 'Dry run: the query would process 1.50 GB (1610612736 bytes).';
let posted: Record<string, unknown>[] = [];

serveApi(async (request, response) => {
  const path = pathOf(request);
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (request.method === 'GET' && path === '/api/v1/connector-kinds') {
    const kind = (name: string, dryRun: boolean) => ({ kind: name, actionKind: 'sql', dryRun });
    return reply(200, { data: [kind('postgresql', false), kind('bigquery', true)] });
  }
  const source = /^\/api\/v1\/projects\/demo\/data-sources\/([\w-]+)$/.exec(path);
  if (request.method === 'GET' && source) return reply(200, dataSources[source[1]!]);
  const definition = /^\/api\/v1\/projects\/demo\/actions\/([\w-]+)$/.exec(path);
  if (request.method === 'GET' && definition) return reply(200, actions[definition[1]!]);
  if (request.method === 'POST' && path.endsWith('/actions/daily-sales/executions')) {
    posted.push(await jsonBodyOf(request));
    return reply(200, {
      id: 'exe_9',
      status: 'succeeded',
      actionId: 'daily-sales',
      results: [
        { title: 'Totals', status: 'succeeded', columns: [], rows: [], rowCount: 0, messages: [estimate] },
      ],
    });
  }
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

describe('dry run on the action screen', () => {
  it('posts the arguments with dryRun: true and shows the estimate', async () => {
    renderScreen('daily-sales');
    await screen.findByRole('heading', { name: 'Daily sales' });
    fireEvent.change(screen.getByLabelText(/Day/), { target: { value: '2026-11-25' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Dry run (estimate)' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ arguments: { day: '2026-11-25' }, dryRun: true });
    expect(await screen.findByText(estimate)).toBeTruthy();
  });

  it('offers no dry run for a kind that cannot estimate', async () => {
    renderScreen('find-orders');
    await screen.findByRole('heading', { name: 'Find orders' });
    await screen.findByRole('button', { name: 'Run' });
    expect(screen.queryByRole('button', { name: 'Dry run (estimate)' })).toBeNull();
  });
});
