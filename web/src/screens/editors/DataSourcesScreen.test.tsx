// @vitest-environment jsdom
/**
 * The data-source form is rendered from the server's own connector descriptors (served by a real
 * HTTP server playing the API): an HTTP source's common headers and authentication action can be
 * edited, the PUT carries them, and Test connection shows the time taken or the reason.
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectorKinds } from '../../../../shared/connectors/descriptors.ts';
import { jsonBodyOf, pathOf, serveApi } from '../../test-support/api-server.ts';
import { InConsole } from '../../test-support/console.tsx';
import { DataSourcesScreen } from './DataSourcesScreen.tsx';

const apiSource = {
  id: 'api',
  name: 'Shop API',
  kind: 'http',
  environments: {
    development: { url: 'https://api.example.test', headers: [{ key: 'x-team', value: 'ops' }] },
  },
};
const pgSource = {
  id: 'pg',
  name: 'Shop DB',
  kind: 'postgresql',
  environments: { development: { host: 'db', port: 5432, database: 'shop', user: 'app', hasPassword: true } },
};

let puts: { path: string; body: Record<string, unknown> }[] = [];
let tests: string[] = [];
let testAnswer: unknown = { ok: true, durationMs: 12 };

serveApi(async (request, response) => {
  const path = pathOf(request);
  response.writeHead(200, { 'content-type': 'application/json' });
  if (path === '/api/v1/connector-kinds') return response.end(JSON.stringify({ data: connectorKinds() }));
  if (request.method === 'PUT') {
    puts.push({ path, body: await jsonBodyOf(request) });
    return response.end('{}');
  }
  if (path.endsWith('/test-connection')) {
    tests.push(path);
    return response.end(JSON.stringify(testAnswer));
  }
  response.end(JSON.stringify({ data: [apiSource, pgSource] }));
});
beforeEach(() => {
  puts = [];
  tests = [];
  testAnswer = { ok: true, durationMs: 12 };
});
afterEach(cleanup);

const renderScreen = () =>
  render(
    <InConsole>
      <DataSourcesScreen />
    </InConsole>,
  );

async function edit(name: string) {
  renderScreen();
  const row = (await screen.findByText(name)).closest('tr') as HTMLElement;
  fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
  return screen.getByRole('form', { name: 'Data source' });
}

describe('data-source form from connector descriptors', () => {
  it('edits an HTTP source’s common headers and authentication action, and saves them', async () => {
    const form = await edit('Shop API');
    expect(within(form).getByLabelText(/^Base URL/)).toHaveProperty('value', 'https://api.example.test');
    expect(within(form).getByLabelText('Common headers 1: Value')).toHaveProperty('value', 'ops');
    fireEvent.click(within(form).getByRole('button', { name: 'Add to Common headers' }));
    fireEvent.change(within(form).getByLabelText('Common headers 2: Key'), { target: { value: 'x-region' } });
    fireEvent.change(within(form).getByLabelText('Common headers 2: Value'), {
      target: { value: '{{ vars.region }}' },
    });
    fireEvent.change(within(form).getByLabelText('Action id'), { target: { value: 'api-login' } });
    fireEvent.change(within(form).getByLabelText('Token path in its result'), { target: { value: 'token' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved "Shop API".');
    expect(puts).toEqual([
      {
        path: '/api/v1/projects/demo/data-sources/api',
        body: {
          id: 'api',
          name: 'Shop API',
          kind: 'http',
          environments: {
            development: {
              url: 'https://api.example.test',
              headers: [
                { key: 'x-team', value: 'ops' },
                { key: 'x-region', value: '{{ vars.region }}' },
              ],
            },
          },
          authAction: { actionId: 'api-login', tokenPath: 'token' },
        },
      },
    ]);
  });

  it('shows a stored password as stored, keeps it when left empty, and offers no auth action for SQL', async () => {
    const form = await edit('Shop DB');
    expect(within(form).getByLabelText(/^Password/)).toHaveProperty('value', '');
    expect(form.textContent).toContain('A value is stored.');
    expect(within(form).queryByLabelText('Action id')).toBeNull();
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved "Shop DB".');
    expect(puts[0]?.body.environments).toEqual({
      development: { host: 'db', port: 5432, database: 'shop', user: 'app' },
    });
  });

  it('tests the saved connection and shows the time taken, or why it failed', async () => {
    const form = await edit('Shop DB');
    fireEvent.click(within(form).getByRole('button', { name: 'Test connection' }));
    await within(form).findByText('Connected in 12 ms.');
    expect(tests).toEqual(['/api/v1/projects/demo/data-sources/pg/environments/development/test-connection']);
    testAnswer = {
      ok: false,
      durationMs: 30,
      error: { code: 'data_source_error', message: 'password refused' },
    };
    fireEvent.click(within(form).getByRole('button', { name: 'Test connection' }));
    await within(form).findByText('Failed after 30 ms: password refused');
  });
});
