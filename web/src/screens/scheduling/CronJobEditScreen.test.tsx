// @vitest-environment jsdom
/**
 * The cron job form against a real HTTP server playing the API: missing name and action are said
 * in the user's language before anything is sent, and every message goes as soon as its field is
 * changed (the others stay); a refused save's message sits next to its field and clears the same way.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonBodyOf, pathOf, serveApi } from '../../test-support/api-server.ts';
import { InConsole } from '../../test-support/console.tsx';
import { CronJobEditScreen } from './CronJobEditScreen.tsx';

const shipOrder = {
  id: 'ship-order',
  name: 'Ship order',
  kind: 'sql',
  dataSourceId: 'shop',
  parameters: [],
  statements: [{ title: 'Ship', sql: 'SELECT 1' }],
  version: 1,
};

let saves: Record<string, unknown>[] = [];

serveApi(async (request, response) => {
  const path = pathOf(request);
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (path === '/api/v1/projects/demo/actions') return reply(200, { data: [shipOrder] });
  if (path === '/api/v1/projects/demo/actions/ship-order') return reply(200, shipOrder);
  if (path.endsWith('/cron-jobs/preview')) {
    return reply(200, { expressions: ['0 9 ? * MON-FRI *'], nextRuns: [] });
  }
  if (request.method === 'POST' && path.endsWith('/cron-jobs')) {
    saves.push(await jsonBodyOf(request));
    return reply(422, {
      title: 'Invalid definition',
      code: 'invalid_definition',
      detail: 'A cron job named Daily report already exists in this environment.',
      errors: [
        { pointer: '#/name', detail: 'A cron job named Daily report already exists in this environment.' },
      ],
    });
  }
  if (request.method === 'GET' && path.includes('/versions')) return reply(404, { title: 'Not found' });
  return reply(200, { data: [] });
});

beforeEach(() => {
  saves = [];
});
afterEach(cleanup);

const session = {
  user: { kind: 'user' as const, id: 'usr_1', email: 'ops@example.com', name: 'Ops' },
  signOut: async () => {},
};

/** The message next to an input (its last aria-describedby), when it is marked invalid. */
function messageOf(input: HTMLElement): string | null {
  if (input.getAttribute('aria-invalid') !== 'true') return null;
  const id = input.getAttribute('aria-describedby')?.split(' ').at(-1);
  return (id && document.getElementById(id)?.textContent) || null;
}

describe('cron job form messages', () => {
  it('says what is missing, and each message goes once its field is fixed', async () => {
    render(
      <InConsole session={session}>
        <CronJobEditScreen params={{}} />
      </InConsole>,
    );
    await screen.findByText('Ship order (ship-order)', undefined, { timeout: 5000 });
    const name = screen.getByLabelText(/^Name/);
    const action = screen.getByLabelText(/^Action/);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(messageOf(name)).toBe('Give the cron job a name.'));
    expect(messageOf(action)).toBe('Choose the action the cron job runs.');
    expect(saves).toEqual([]);

    fireEvent.change(name, { target: { value: 'Daily report' } });
    expect(messageOf(name)).toBeNull();
    expect(messageOf(action)).toBe('Choose the action the cron job runs.');
    fireEvent.change(action, { target: { value: 'ship-order' } });
    expect(messageOf(action)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(messageOf(name)).toBe('A cron job named Daily report already exists in this environment.'),
    );
    expect(saves).toHaveLength(1);
    fireEvent.change(name, { target: { value: 'Daily report 2' } });
    expect(messageOf(name)).toBeNull();
    // The refusal is answered: no banner is left over from it.
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
