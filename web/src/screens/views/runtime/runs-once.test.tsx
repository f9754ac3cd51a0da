// @vitest-environment jsdom
/**
 * One open of a view is one run per on-load query (issue 29), whatever React does around it:
 * StrictMode's second mount, and re-renders that hand the runtime new objects with the same
 * content (the arguments, the viewer, the confirm provider's environment name arriving). New
 * arguments in content do run the queries again, once.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonBodyOf, pathOf, serveApi } from '../../../test-support/api-server.ts';
import { demoWorkspace, InConsole } from '../../../test-support/console.tsx';
import type { VisualViewDefinition } from '../view-api.ts';
import { ConfirmRunProvider } from './confirm-run.tsx';
import { ViewRenderer } from './ViewRenderer.tsx';

afterEach(cleanup);

let posted: { actionId: string; args: Record<string, unknown> }[] = [];
beforeEach(() => {
  posted = [];
});

serveApi(async (request, response) => {
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const path = pathOf(request);
  if (path === '/api/v1/projects/demo/actions/list-orders') {
    return reply(200, { id: 'list-orders', parameters: [{ name: 'status', kind: 'text' }] });
  }
  const match =
    /^\/public\/v1\/projects\/demo\/environments\/development\/actions\/([\w-]+)\/executions$/.exec(path);
  if (!match) return reply(404, { title: 'Not found' });
  const body = await jsonBodyOf(request);
  const args = body.arguments as Record<string, unknown>;
  posted.push({ actionId: match[1]!, args });
  return reply(200, {
    id: `exe_${posted.length}`,
    status: 'succeeded',
    results: [
      {
        status: 'succeeded',
        title: 'r',
        columns: [],
        rows: [{ id: 1, status: String(args.status ?? '') }],
        rowCount: 1,
        messages: [],
      },
    ],
  });
});

const definition: VisualViewDefinition = {
  kind: 'visual',
  parameters: [],
  queries: [
    { id: 'orders', actionId: 'list-orders', arguments: { status: 'panel.args.status' }, runOn: 'load' },
  ],
  layout: {
    id: 'root',
    type: 'grid',
    columns: 1,
    children: [{ id: 't1', type: 'table', query: 'orders', columns: [{ field: 'id' }, { field: 'status' }] }],
  },
} as VisualViewDefinition;

function view(args: Record<string, unknown>, environmentName: string) {
  return (
    <StrictMode>
      <InConsole
        session={{ user: { kind: 'user', id: 'usr_1', email: 'ops@dogu.local' }, signOut: async () => {} }}
      >
        <ConfirmRunProvider environmentName={environmentName}>
          <ViewRenderer
            viewId="orders-view"
            definition={definition}
            args={args}
            user={{ id: 'usr_1', email: 'ops@dogu.local' }}
            projectId="demo"
            environmentId="development"
            href={demoWorkspace.href}
          />
        </ConfirmRunProvider>
      </InConsole>
    </StrictMode>
  );
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('runs per open', () => {
  it('runs each on-load query once per open, and once more per change of the arguments', async () => {
    const shown = render(view({ status: 'paid' }, 'development'));
    await screen.findByRole('cell', { name: 'paid' });
    // Same content, new objects; the environment's name arriving later (a new confirm callback).
    shown.rerender(view({ status: 'paid' }, 'Development'));
    shown.rerender(view({ status: 'paid' }, 'Development'));
    await settle();
    expect(posted).toEqual([{ actionId: 'list-orders', args: { status: 'paid' } }]);

    shown.rerender(view({ status: 'shipped' }, 'Development'));
    await screen.findByRole('cell', { name: 'shipped' });
    await settle();
    expect(posted.map((p) => p.args)).toEqual([{ status: 'paid' }, { status: 'shipped' }]);
  });
});
