// @vitest-environment jsdom
/**
 * Revoking a service account's tokens: the button asks first, and only the confirmation posts
 * `…/revoke-tokens` to a real HTTP server playing the API; cancelling sends nothing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceProvider, workspaceHref } from '../../app/workspace.tsx';
import { ToastProvider } from '../../components/index.ts';
import { I18nProvider } from '../../i18n/index.tsx';
import type { ServiceAccount } from './api.ts';
import { ServiceAccountsScreen } from './ServiceAccountsScreen.tsx';

const account: ServiceAccount = {
  id: 'sa_deploy',
  email: 'deploy-bot@demo.sa.dogu',
  name: 'deploy-bot',
  createdAt: '2026-11-01T00:00:00Z',
};

let posted: string[] = [];
let server: Server;
const realFetch = globalThis.fetch;

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://api').pathname;
    response.writeHead(200, { 'content-type': 'application/json' });
    if (request.method === 'POST') {
      posted.push(path);
      response.end(JSON.stringify(account));
    } else if (path === '/api/v1/projects/demo/service-accounts') {
      response.end(JSON.stringify({ data: [account] }));
    } else {
      response.end(JSON.stringify({ data: [] }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The console calls same-origin paths; Node's fetch needs them made absolute against the server.
  globalThis.fetch = (input, init) => realFetch(new URL(String(input), base), init);
});
afterAll(async () => {
  globalThis.fetch = realFetch;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  posted = [];
});
afterEach(cleanup);

function renderScreen() {
  const workspace = {
    projectId: 'demo',
    environmentId: 'development',
    projects: [],
    environments: [],
    project: undefined,
    environment: undefined,
    href: (path: string) => workspaceHref('demo', 'development', path),
  };
  render(
    <I18nProvider language="en">
      <ToastProvider>
        <WorkspaceProvider value={workspace}>
          <ServiceAccountsScreen />
        </WorkspaceProvider>
      </ToastProvider>
    </I18nProvider>,
  );
}

describe('service accounts: revoke tokens', () => {
  it('asks for a confirmation, then posts revoke-tokens for that account', async () => {
    renderScreen();
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke tokens' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke every token of deploy-bot?' });
    expect(dialog.textContent).toContain('stops working at once');
    expect(posted).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke tokens' }));
    await screen.findByText('Revoked the tokens of deploy-bot.');
    expect(posted).toEqual(['/api/v1/projects/demo/service-accounts/sa_deploy/revoke-tokens']);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('cancelling the confirmation sends nothing', async () => {
    renderScreen();
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke tokens' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posted).toEqual([]);
  });
});
