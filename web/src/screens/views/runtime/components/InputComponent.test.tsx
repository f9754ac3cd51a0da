// @vitest-environment jsdom
/**
 * Standalone inputs (issue 29): each kind's value is `components.<id>.value`; a query whose
 * arguments read a search box runs once per pause in typing (not once per key, not before the
 * first key while its required argument is empty), and `onChange` events run after the same pause.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonBodyOf, pathOf, serveApi } from '../../../../test-support/api-server.ts';
import { demoWorkspace, InConsole } from '../../../../test-support/console.tsx';
import type { ViewComponent, VisualViewDefinition } from '../../view-api.ts';
import { ConfirmRunProvider } from '../confirm-run.tsx';
import { ViewRenderer } from '../ViewRenderer.tsx';

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
  if (path === '/api/v1/projects/demo/actions/search-orders') {
    return reply(200, { id: 'search-orders', parameters: [{ name: 'q', kind: 'text', required: true }] });
  }
  if (path.startsWith('/api/v1/projects/demo/actions/')) {
    return reply(200, { id: path.split('/').pop(), parameters: [] });
  }
  const match =
    /^\/public\/v1\/projects\/demo\/environments\/development\/actions\/([\w-]+)\/executions$/.exec(path);
  if (!match) return reply(404, { title: 'Not found' });
  const body = await jsonBodyOf(request);
  const args = body.arguments as Record<string, unknown>;
  posted.push({ actionId: match[1]!, args });
  const rows =
    match[1] === 'list-statuses'
      ? [
          { code: 'paid', name: 'Paid' },
          { code: 'shipped', name: 'Shipped' },
        ]
      : [{ id: posted.length, found: `found ${String(args.q ?? '')}` }];
  return reply(200, {
    id: `exe_${posted.length}`,
    status: 'succeeded',
    results: [{ status: 'succeeded', title: 'r', columns: [], rows, rowCount: rows.length, messages: [] }],
  });
});

function view(definition: VisualViewDefinition) {
  return (
    <StrictMode>
      <InConsole
        session={{ user: { kind: 'user', id: 'usr_1', email: 'ops@dogu.local' }, signOut: async () => {} }}
      >
        <ConfirmRunProvider environmentName="development">
          <ViewRenderer
            viewId="inputs-view"
            definition={definition}
            args={{}}
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

const define = (queries: VisualViewDefinition['queries'], children: ViewComponent[]) =>
  ({
    kind: 'visual',
    parameters: [],
    queries,
    layout: { id: 'root', type: 'grid', columns: 1, children },
  }) as VisualViewDefinition;

const wait = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

describe('search as you type', () => {
  it('runs the query once per pause in typing, and not while the search is empty', async () => {
    render(
      view(
        define(
          [
            {
              id: 'orders',
              actionId: 'search-orders',
              arguments: { q: 'components.search1.value' },
              runOn: 'load',
            },
          ],
          [
            { id: 'search1', type: 'input', inputType: 'text', label: 'Search' },
            { id: 't1', type: 'table', query: 'orders', columns: [{ field: 'found' }] },
          ],
        ),
      ),
    );
    const box = screen.getByLabelText('Search');
    await wait(300);
    expect(posted).toEqual([]); // required `q` is empty: the query waits
    for (const text of ['o', 'or', 'ord']) {
      fireEvent.change(box, { target: { value: text } });
      await wait(100);
    }
    expect(posted).toEqual([]); // still typing
    await screen.findByRole('cell', { name: 'found ord' });
    await wait(500);
    expect(posted).toEqual([{ actionId: 'search-orders', args: { q: 'ord' } }]);

    fireEvent.change(box, { target: { value: 'orde' } });
    fireEvent.change(box, { target: { value: 'order' } });
    await screen.findByRole('cell', { name: 'found order' });
    await wait(500);
    expect(posted.map((p) => p.args)).toEqual([{ q: 'ord' }, { q: 'order' }]);
  });

  it('runs once on open with the default, then once after a change; onChange events after the pause', async () => {
    render(
      view(
        define(
          [
            {
              id: 'orders',
              actionId: 'search-orders',
              arguments: { q: 'components.search1.value' },
              runOn: 'load',
            },
            {
              id: 'audit',
              actionId: 'note-search',
              arguments: { text: 'components.search1.value' },
              runOn: 'manual',
            },
          ],
          [
            {
              id: 'search1',
              type: 'input',
              inputType: 'text',
              label: 'Search',
              default: "'paid'",
              debounceMs: 200,
              onChange: [{ type: 'runQuery', query: 'audit' }],
            },
            { id: 't1', type: 'table', query: 'orders', columns: [{ field: 'found' }] },
          ],
        ),
      ),
    );
    await screen.findByRole('cell', { name: 'found paid' });
    await wait(300);
    expect(posted).toEqual([{ actionId: 'search-orders', args: { q: 'paid' } }]);
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'shipped' } });
    await screen.findByRole('cell', { name: 'found shipped' });
    await wait(400);
    // Both after the same pause (in either order: the query first reads its action's parameters).
    expect(posted.slice(1).sort((a, b) => a.actionId.localeCompare(b.actionId))).toEqual([
      { actionId: 'note-search', args: { text: 'shipped' } },
      { actionId: 'search-orders', args: { q: 'shipped' } },
    ]);
  });
});

describe('input kinds', () => {
  const shows = (id: string) => ({
    id: `show-${id}`,
    type: 'text' as const,
    content: `${id}={{ components.${id}.value }}`,
  });

  it('gives each kind its typed value', async () => {
    render(
      view(
        define(
          [{ id: 'statuses', actionId: 'list-statuses', arguments: {}, runOn: 'load' }],
          [
            { id: 'n1', type: 'input', inputType: 'number', label: 'Amount' },
            { id: 'c1', type: 'input', inputType: 'checkbox', label: 'Urgent' },
            { id: 's1', type: 'input', inputType: 'switch', label: 'Live', default: 'true' },
            { id: 'd1', type: 'input', inputType: 'date', label: 'Since' },
            {
              id: 'sel1',
              type: 'input',
              inputType: 'select',
              label: 'Size',
              options: [
                { value: 1, label: 'Small' },
                { value: 2, label: 'Large' },
              ],
            },
            {
              id: 'sel2',
              type: 'input',
              inputType: 'multiselect',
              label: 'Statuses',
              optionsQuery: 'statuses',
              optionValue: 'code',
              optionLabel: 'name',
            },
            shows('n1'),
            shows('c1'),
            shows('s1'),
            shows('d1'),
            shows('sel1'),
            shows('sel2'),
          ],
        ),
      ),
    );
    await screen.findByRole('option', { name: 'Shipped' });
    expect(screen.getByText('s1=true')).toBeTruthy();
    expect(screen.getByText('sel2=[]')).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Live' })).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '42' } });
    fireEvent.click(screen.getByLabelText('Urgent'));
    fireEvent.click(screen.getByRole('switch', { name: 'Live' }));
    fireEvent.change(screen.getByLabelText('Since'), { target: { value: '2026-11-28' } });
    fireEvent.change(screen.getByLabelText('Size'), { target: { value: '1' } });
    const multi = screen.getByLabelText('Statuses') as HTMLSelectElement;
    for (const option of multi.options) option.selected = true;
    fireEvent.change(multi);

    expect(await screen.findByText('n1=42')).toBeTruthy();
    expect(screen.getByText('c1=true')).toBeTruthy();
    expect(screen.getByText('s1=false')).toBeTruthy();
    expect(screen.getByText('d1=2026-11-28')).toBeTruthy();
    expect(screen.getByText('sel1=2')).toBeTruthy();
    expect(screen.getByText('sel2=["paid","shipped"]')).toBeTruthy();
  });
});
