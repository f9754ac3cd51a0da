// @vitest-environment jsdom
/**
 * The Preview button against a real HTTP server that plays the API (decision 0185): offered for a
 * data-changing action whose kind declares `preview`, never for a reading one; a click or
 * Ctrl+Shift+Enter posts `preview: true` without asking for confirmation, and the answer shows per
 * statement the rows that would be affected and the rows before and after.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActionDefinition } from '../../api/types.ts';
import { jsonBodyOf, pathOf, serveApi } from '../../test-support/api-server.ts';
import { InConsole } from '../../test-support/console.tsx';
import { ActionScreen } from './ActionScreen.tsx';

const action = (id: string, sql: string): ActionDefinition =>
  ({
    id,
    name: id,
    kind: 'sql',
    dataSourceId: 'shop',
    parameters: [{ name: 'region', kind: 'text', label: 'Region' }],
    statements: [{ title: 'Top up', sql }],
    version: 1,
  }) as ActionDefinition;
const actions: Record<string, ActionDefinition> = {
  'top-up': action('top-up', 'UPDATE wallets SET balance = balance + 100 WHERE region = {{ region }}'),
  wallets: action('wallets', 'SELECT * FROM wallets WHERE region = {{ region }}'),
};
const rowsOf = (balances: number[]) => ({
  columns: [
    { name: 'id', type: 'number' },
    { name: 'balance', type: 'number' },
  ],
  rows: balances.map((balance, i) => ({ id: i + 1, balance })),
});
let posted: Record<string, unknown>[] = [];

serveApi(async (request, response) => {
  const path = pathOf(request);
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (request.method === 'GET' && path === '/api/v1/connector-kinds') {
    return reply(200, { data: [{ kind: 'postgresql', actionKind: 'sql', dryRun: false, preview: true }] });
  }
  if (request.method === 'GET' && path === '/api/v1/projects/demo/data-sources/shop')
    return reply(200, { id: 'shop', kind: 'postgresql' });
  const definition = /^\/api\/v1\/projects\/demo\/actions\/([\w-]+)$/.exec(path);
  if (request.method === 'GET' && definition) return reply(200, actions[definition[1]!]);
  if (request.method === 'POST' && path.endsWith('/actions/top-up/executions')) {
    posted.push(await jsonBodyOf(request));
    return reply(200, {
      id: 'exe_p1',
      status: 'succeeded',
      actionId: 'top-up',
      preview: true,
      results: [
        {
          title: 'Top up',
          status: 'succeeded',
          columns: [],
          rows: [],
          rowCount: 0,
          messages: ['3 rows would be affected; rolled back, nothing was committed.'],
          preview: { rowsAffected: 3, before: rowsOf([10, 20, 30]), after: rowsOf([110, 120, 130]) },
        },
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

describe('preview on the action screen', () => {
  it('posts preview: true without a confirmation and shows the count, before and after', async () => {
    renderScreen('top-up');
    await screen.findByRole('heading', { name: 'top-up' });
    fireEvent.change(screen.getByLabelText(/Region/), { target: { value: 'jp' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ arguments: { region: 'jp' }, preview: true, via: 'console' });
    expect(screen.queryByRole('dialog')).toBeNull();
    const results = await screen.findByRole('region', { name: 'Preview (rolled back)' });
    expect(within(results).getByTestId('preview-count').textContent).toBe('3 rows would be affected');
    const before = within(results).getByRole('table', { name: 'Before' });
    const after = within(results).getByRole('table', { name: 'After' });
    expect(before.textContent).toContain('30');
    expect(after.textContent).toContain('130');
    // Said to a screen reader in one line.
    expect(document.getElementById('run-status')?.textContent).toBe(
      'Preview: Top up: 3 rows would be affected',
    );
  });

  it('Ctrl+Shift+Enter previews from the form', async () => {
    renderScreen('top-up');
    await screen.findByRole('button', { name: 'Preview' });
    const input = screen.getByLabelText(/Region/);
    fireEvent.change(input, { target: { value: 'us' } });
    fireEvent.keyDown(input, { key: 'Enter', ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ arguments: { region: 'us' }, preview: true });
  });

  it('offers no preview for an action that only reads', async () => {
    renderScreen('wallets');
    await screen.findByRole('button', { name: 'Run' });
    expect(screen.queryByRole('button', { name: 'Preview' })).toBeNull();
  });
});
