// @vitest-environment jsdom
/**
 * The builder's preview runs clicks as the view would: a data-changing action asks first in the
 * runtime's dialog (action, the preview's environment, arguments) and is sent again with `confirm`
 * only after a yes, against a real HTTP server that refuses unconfirmed changing runs as the API does.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Environment } from '../../../api/types.ts';
import { WorkspaceProvider } from '../../../app/workspace.tsx';
import { jsonBodyOf, pathOf, serveApi } from '../../../test-support/api-server.ts';
import { demoWorkspace, InConsole } from '../../../test-support/console.tsx';
import type { ViewHead } from '../view-api.ts';
import { ViewBuilderScreen } from './ViewBuilderScreen.tsx';

const head: ViewHead = {
  id: 'ship-view',
  name: 'Ship view',
  version: 2,
  definition: {
    kind: 'visual',
    parameters: [],
    queries: [],
    layout: {
      id: 'root',
      type: 'grid',
      columns: 1,
      children: [
        {
          id: 'ship',
          type: 'button',
          label: 'Ship order 7',
          events: [{ type: 'runAction', actionId: 'mark-shipped', arguments: { order_id: '7' } }],
        },
      ],
    },
  },
};

let posted: { path: string; body: Record<string, unknown> }[] = [];

serveApi(async (request, response) => {
  const path = pathOf(request);
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (request.method === 'GET' && path === '/api/v1/projects/demo/views/ship-view') return reply(200, head);
  if (request.method === 'GET' && path === '/api/v1/projects/demo/actions')
    return reply(200, { data: [{ id: 'mark-shipped', name: 'Mark shipped' }] });
  if (request.method === 'GET' && path === '/api/v1/projects/demo/views')
    return reply(200, { data: [{ id: 'ship-view', name: 'Ship view' }] });
  if (request.method === 'POST' && path.endsWith('/executions')) {
    const body = await jsonBodyOf(request);
    posted.push({ path, body });
    if (body.confirm !== true) {
      return reply(409, {
        code: 'state_conflict',
        status: 409,
        reason: 'confirmation_required',
        actionId: 'mark-shipped',
        actionName: 'Mark shipped',
        environmentId: 'development',
        arguments: body.arguments,
        detail: "Action 'mark-shipped' changes data: run it only after confirming.",
      });
    }
    return reply(200, { id: 'exe_1', status: 'succeeded', results: [] });
  }
  return reply(404, { code: 'not_found', status: 404, detail: `No route ${path}` });
});

beforeEach(() => {
  posted = [];
});
afterEach(cleanup);

const environments: Environment[] = [
  { projectId: 'demo', id: 'development', name: 'Development', protected: false },
  { projectId: 'demo', id: 'production', name: 'Production', protected: true },
];

function renderBuilder() {
  // Edited while production is the current environment: the preview still runs in development.
  render(
    <InConsole
      session={{ user: { kind: 'user', id: 'usr_1', email: 'dev@dogu.local' }, signOut: async () => {} }}
    >
      <WorkspaceProvider
        value={{
          ...demoWorkspace,
          environmentId: 'production',
          environments,
          environment: environments[1],
        }}
      >
        <ViewBuilderScreen params={{ viewId: 'ship-view' }} />
      </WorkspaceProvider>
    </InConsole>,
  );
}

const executions = '/public/v1/projects/demo/environments/development/actions/mark-shipped/executions';

describe('the builder preview', () => {
  it('asks before a click runs a data-changing action and sends it confirmed after a yes', async () => {
    renderBuilder();
    const preview = await screen.findByRole('region', { name: /Preview/ });
    fireEvent.click(await within(preview).findByRole('button', { name: 'Ship order 7' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run Mark shipped in Development?' });
    expect(dialog.textContent).toContain('order_id');
    expect(within(dialog).getByText('7')).toBeTruthy();
    expect(posted).toEqual([
      { path: executions, body: { arguments: { order_id: 7 }, source: { viewId: 'ship-view' } } },
    ]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Run and change data' }));
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[1]).toEqual({
      path: executions,
      body: { arguments: { order_id: 7 }, source: { viewId: 'ship-view' }, confirm: true },
    });
    expect(await within(preview).findByText('Done.')).toBeTruthy();
  });

  it('sends nothing more when the author declines', async () => {
    renderBuilder();
    const preview = await screen.findByRole('region', { name: /Preview/ });
    fireEvent.click(await within(preview).findByRole('button', { name: 'Ship order 7' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run Mark shipped in Development?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(preview).findByText(/Not run: Mark shipped changes data/)).toBeTruthy();
    expect(posted).toHaveLength(1);
    expect(posted[0]!.body.confirm).toBeUndefined();
  });
});
