// @vitest-environment jsdom
/**
 * View state (issue 29): `state.<name>` starts at the definition's first value, `setState` events
 * change it and expressions read it. A timer runs its queries again every `everySeconds`, unconfirmed
 * like an on-load query (so only reading actions run), and stops when the view closes.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonBodyOf, pathOf, serveApi } from '../../../test-support/api-server.ts';
import { demoWorkspace, InConsole } from '../../../test-support/console.tsx';
import type { VisualViewDefinition } from '../view-api.ts';
import { ViewRenderer } from './ViewRenderer.tsx';

afterEach(cleanup);

let posted: { actionId: string; body: Record<string, unknown> }[] = [];
beforeEach(() => {
  posted = [];
});

serveApi(async (request, response) => {
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const path = pathOf(request);
  if (path.startsWith('/api/v1/projects/demo/actions/')) return reply(200, { parameters: [] });
  const match =
    /^\/public\/v1\/projects\/demo\/environments\/development\/actions\/([\w-]+)\/executions$/.exec(path);
  if (!match) return reply(404, { title: 'Not found' });
  posted.push({ actionId: match[1]!, body: await jsonBodyOf(request) });
  return reply(200, {
    id: `exe_${posted.length}`,
    status: 'succeeded',
    results: [
      {
        status: 'succeeded',
        title: 'r',
        columns: [],
        rows: [{ n: posted.length }],
        rowCount: 1,
        messages: [],
      },
    ],
  });
});

function view(definition: VisualViewDefinition) {
  return (
    <InConsole
      session={{ user: { kind: 'user', id: 'usr_1', email: 'ops@dogu.local' }, signOut: async () => {} }}
    >
      <ViewRenderer
        viewId="v1"
        definition={definition}
        args={{ start: 5 }}
        user={{ id: 'usr_1', email: 'ops@dogu.local' }}
        projectId="demo"
        environmentId="development"
        href={demoWorkspace.href}
      />
    </InConsole>
  );
}

describe('view state', () => {
  it('starts at its first value, is set by events and read by expressions', async () => {
    render(
      view({
        kind: 'visual',
        parameters: [],
        queries: [],
        state: { count: 'panel.args.start' },
        layout: {
          id: 'root',
          type: 'grid',
          columns: 1,
          children: [
            { id: 'shown', type: 'text', content: 'Count: {{ state.count }}' },
            {
              id: 'more',
              type: 'button',
              label: 'More',
              events: [{ type: 'setState', name: 'count', value: 'state.count + 1' }],
            },
            { id: 'other', type: 'text', content: 'Other: {{ state.other ?? "none" }}' },
          ],
        },
      } as VisualViewDefinition),
    );
    expect(screen.getByText('Count: 5')).toBeTruthy();
    expect(screen.getByText('Other: none')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'More' }));
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'More' }));
    });
    expect(await screen.findByText('Count: 7')).toBeTruthy();
  });
});

describe('timers', () => {
  it('runs its queries again every interval, unconfirmed, and stops when the view closes', async () => {
    const shown = render(
      view({
        kind: 'visual',
        parameters: [],
        queries: [{ id: 'stats', actionId: 'order-stats', arguments: {}, runOn: 'load' }],
        timers: [{ everySeconds: 5, queries: ['stats'] }],
        layout: {
          id: 'root',
          type: 'grid',
          columns: 1,
          children: [{ id: 't', type: 'table', query: 'stats', columns: [{ field: 'n' }] }],
        },
      } as VisualViewDefinition),
    );
    await screen.findByRole('cell', { name: '1' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 5400)));
    expect(await screen.findByRole('cell', { name: '2' })).toBeTruthy();
    expect(posted).toHaveLength(2);
    expect(posted.every((p) => p.body.confirm === undefined)).toBe(true);
    shown.unmount();
    await new Promise((resolve) => setTimeout(resolve, 5200));
    expect(posted).toHaveLength(2);
  }, 20_000);
});
