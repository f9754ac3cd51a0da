// @vitest-environment jsdom
/**
 * Revoking a service account's tokens: the button asks first, and only the confirmation posts
 * `…/revoke-tokens` to a real HTTP server playing the API; cancelling sends nothing.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pathOf, serveApi } from '../../test-support/api-server.ts';
import { InConsole } from '../../test-support/console.tsx';
import type { ServiceAccount } from './api.ts';
import { ServiceAccountsScreen } from './ServiceAccountsScreen.tsx';

const account: ServiceAccount = {
  id: 'sa_deploy',
  email: 'deploy-bot@demo.sa.dogu',
  name: 'deploy-bot',
  createdAt: '2026-11-01T00:00:00Z',
};

let posted: string[] = [];

serveApi((request, response) => {
  const path = pathOf(request);
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
beforeEach(() => {
  posted = [];
});
afterEach(cleanup);

function renderScreen() {
  render(
    <InConsole>
      <ServiceAccountsScreen />
    </InConsole>,
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
