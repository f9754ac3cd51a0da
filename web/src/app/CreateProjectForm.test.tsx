// @vitest-environment jsdom
/**
 * Someone in no project is offered what works: a form that creates a project (they become its
 * administrator) with the environments development and production, then opens it. An empty id is
 * said beside the field, not sent.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { I18nProvider } from '../i18n/index.tsx';
import { jsonBodyOf, pathOf, serveApi } from '../test-support/api-server.ts';
import { Home } from './Home.tsx';

let puts: { path: string; body: Record<string, unknown> }[] = [];
serveApi(async (request, response) => {
  const path = pathOf(request);
  response.setHeader('content-type', 'application/json');
  if (request.method === 'PUT') {
    puts.push({ path, body: await jsonBodyOf(request) });
    response.statusCode = 201;
    return response.end('{}');
  }
  response.end(JSON.stringify({ data: [] }));
});
beforeEach(() => {
  puts = [];
  window.history.replaceState(null, '', '/');
});
afterEach(cleanup);

describe('no project yet', () => {
  it('creates a project with development and production and opens it', async () => {
    render(
      <I18nProvider language="en">
        <Home />
      </I18nProvider>,
    );
    await screen.findByRole('heading', { name: 'You are not a member of any project yet' });
    expect(screen.getByText(/create your own below/).textContent).not.toContain('CLI');
    fireEvent.click(screen.getByRole('button', { name: 'Create project' }));
    const id = screen.getByLabelText(/^Project id/);
    expect(
      document.getElementById(id.getAttribute('aria-describedby')!.split(' ').at(-1)!)?.textContent,
    ).toBe('Enter an id.');
    expect(puts).toEqual([]);
    fireEvent.change(id, { target: { value: 'ops' } });
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Operations' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create project' }));
    await waitFor(() => expect(window.location.pathname).toBe('/p/ops/e/development/actions'));
    expect(puts).toEqual([
      { path: '/api/v1/projects/ops', body: { id: 'ops', name: 'Operations' } },
      {
        path: '/api/v1/projects/ops/environments/development',
        body: { id: 'development', name: 'Development' },
      },
      {
        path: '/api/v1/projects/ops/environments/production',
        body: { id: 'production', name: 'Production' },
      },
    ]);
  });
});
