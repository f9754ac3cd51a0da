// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonBodyOf, pathOf, serveApi } from '../../../test-support/api-server.ts';
import { demoWorkspace, InConsole } from '../../../test-support/console.tsx';
import type { VisualViewDefinition } from '../view-api.ts';
import { ViewRenderer } from './ViewRenderer.tsx';

afterEach(cleanup);

const orders = Array.from({ length: 7 }, (_, i) => ({
  id: i + 1,
  customer: `Customer ${7 - i}`,
  status: i % 2 ? 'paid' : 'shipped',
}));

/** Every execution the server received: action id and body. */
let posted: { actionId: string; body: Record<string, unknown> }[] = [];
beforeEach(() => {
  posted = [];
});

const execution = (rows: Record<string, unknown>[]) => ({
  id: 'exe_1',
  status: 'succeeded',
  results: [{ status: 'succeeded', title: 'r', columns: [], rows, rowCount: rows.length, messages: [] }],
});

serveApi(async (request, response) => {
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const match =
    /^\/public\/v1\/projects\/demo\/environments\/development\/actions\/([\w-]+)\/executions$/.exec(
      pathOf(request),
    );
  if (!match) return reply(404, { title: 'Not found' });
  const actionId = match[1]!;
  const body = await jsonBodyOf(request);
  posted.push({ actionId, body });
  const args = body.arguments as Record<string, number>;
  switch (actionId) {
    case 'list-orders':
      return reply(200, execution(orders.slice(args.offset ?? 0, (args.offset ?? 0) + (args.limit ?? 100))));
    case 'ship':
      return reply(200, execution([{ id: args.order_id, status: 'shipped' }]));
    case 'forbidden':
      return reply(403, { code: 'forbidden', title: 'Forbidden', detail: 'You may not run this action.' });
    case 'gated':
      return reply(202, { reviewRequest: { id: 'rev_9', status: 'pending' }, links: { self: '/rev_9' } });
    default:
      return reply(422, {
        code: 'data_source_error',
        title: 'Data source error',
        detail: 'boom',
        execution: { ...execution([]), status: 'failed' },
      });
  }
});

function show(definition: VisualViewDefinition, args: Record<string, unknown> = {}) {
  return render(
    <InConsole
      session={{ user: { kind: 'user', id: 'usr_1', email: 'ops@dogu.local' }, signOut: async () => {} }}
    >
      <ViewRenderer
        viewId="orders-view"
        definition={definition}
        args={args}
        user={{ id: 'usr_1', email: 'ops@dogu.local' }}
        projectId="demo"
        environmentId="development"
        href={demoWorkspace.href}
      />
    </InConsole>,
  );
}

const grid = (children: VisualViewDefinition['layout'][]): VisualViewDefinition['layout'] => ({
  id: 'root',
  type: 'grid',
  columns: 1,
  children,
});

const bodyRows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);

describe('ViewRenderer', () => {
  it('shows a query in a table that sorts, filters and pages, and runs row events as the viewer', async () => {
    show({
      kind: 'visual',
      parameters: [],
      queries: [{ id: 'orders', actionId: 'list-orders', arguments: {}, runOn: 'load' }],
      layout: grid([
        {
          id: 'table',
          type: 'table',
          title: 'Orders',
          query: 'orders',
          sortable: true,
          filterable: true,
          pageSize: 5,
          rowMenu: [
            {
              label: 'Ship',
              events: [
                {
                  type: 'runAction',
                  actionId: 'ship',
                  arguments: { order_id: 'row.id' },
                  onSuccess: [{ type: 'refresh' }],
                },
              ],
            },
          ],
        },
        { id: 'count', type: 'text', content: 'Loaded {{ queries.orders.rows.length }} orders' },
      ]),
    });
    const table = await screen.findByRole('table', { name: 'Orders' });
    await waitFor(() => expect(bodyRows(table)).toHaveLength(5));
    expect(screen.getByText('Loaded 7 orders')).toBeTruthy();
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /customer/ }));
    expect(within(bodyRows(table)[0]!).getByText('Customer 1')).toBeTruthy();

    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'paid' } });
    expect(bodyRows(table)).toHaveLength(3);
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: '' } });

    const before = posted.length;
    fireEvent.click(within(bodyRows(table)[0]!).getByRole('menuitem', { name: 'Ship' }));
    await screen.findByText('Done.');
    const ship = posted.find((p) => p.actionId === 'ship')!;
    expect(ship.body).toEqual({ arguments: { order_id: 7 }, source: { viewId: 'orders-view' } });
    // onSuccess refreshed the load query.
    await waitFor(() =>
      expect(posted.slice(before).filter((p) => p.actionId === 'list-orders')).toHaveLength(1),
    );
  });

  it('pages on the server through the limit and offset parameters', async () => {
    show({
      kind: 'visual',
      parameters: [],
      queries: [
        {
          id: 'orders',
          actionId: 'list-orders',
          arguments: {},
          runOn: 'load',
          paging: { limitParameter: 'limit', offsetParameter: 'offset', pageSize: 3 },
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the transformer is a template literal
          transformer: 'rows.map(r => ({ ...r, label: `#${r.id} ${upper(r.status)}` }))',
        },
      ],
      layout: grid([
        { id: 'table', type: 'table', query: 'orders', columns: [{ field: 'id' }, { field: 'label' }] },
      ]),
    });
    const table = await screen.findByRole('table');
    await waitFor(() => expect(bodyRows(table)).toHaveLength(3));
    // The transformer reshaped the rows for display.
    expect(within(table).getByText('#1 SHIPPED')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2');
    await waitFor(() => expect(within(table).getByText('4')).toBeTruthy());
    expect(posted.at(-1)!.body.arguments).toEqual({ limit: 3, offset: 3 });
  });

  it('shows each failure in its own place while the rest keeps working', async () => {
    show({
      kind: 'visual',
      parameters: [],
      queries: [
        { id: 'orders', actionId: 'list-orders', arguments: {}, runOn: 'load' },
        { id: 'broken', actionId: 'explodes', arguments: {}, runOn: 'load' },
      ],
      layout: grid([
        { id: 'bad', type: 'text', content: '{{ queries.orders.constructor }}' },
        { id: 'unknown', type: 'text', content: '{{ nothing.here }}' },
        { id: 'failed', type: 'table', query: 'broken' },
        { id: 'missing', type: 'detail', query: 'orders', fields: [{ field: 'total' }, { field: 'id' }] },
        {
          id: 'no',
          type: 'button',
          label: 'Forbidden',
          events: [{ type: 'runAction', actionId: 'forbidden' }],
        },
        { id: 'review', type: 'button', label: 'Refund', events: [{ type: 'runAction', actionId: 'gated' }] },
        {
          id: 'js',
          type: 'button',
          label: 'Open',
          events: [{ type: 'navigate', to: { url: "'javascript:alert(1)'" } }],
        },
        { id: 'ok', type: 'markdown', content: 'Fine <img src=x onerror=alert(1)> [x](javascript:alert(1))' },
      ]),
    });
    const inPlace = (id: string) => document.querySelector(`[data-component="${id}"]`) as HTMLElement;
    await waitFor(() =>
      expect(inPlace('bad').textContent).toContain('"constructor" cannot be used in expressions'),
    );
    expect(inPlace('unknown').textContent).toContain('"nothing" is not defined here');
    await waitFor(() => expect(inPlace('failed').textContent).toContain('boom'));
    await waitFor(() => expect(inPlace('missing').textContent).toContain('No such field in the data: total'));

    fireEvent.click(screen.getByRole('button', { name: 'Forbidden' }));
    await waitFor(() => expect(inPlace('no').textContent).toContain('You may not run this action'));
    fireEvent.click(screen.getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(inPlace('review').textContent).toContain('Review requested.'));
    expect(within(inPlace('review')).getByRole('link').getAttribute('href')).toBe(
      '/p/demo/e/development/reviews/rev_9',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    await waitFor(() =>
      expect(inPlace('js').textContent).toContain('Only http and https addresses can be opened'),
    );

    const markdown = inPlace('ok');
    expect(markdown.querySelector('img')).toBeNull();
    expect(markdown.querySelector('a')).toBeNull();
    expect(markdown.textContent).toContain('<img src=x onerror=alert(1)>');
  });

  it('submits a form of custom fields into the events and validates them', async () => {
    show({
      kind: 'visual',
      parameters: [],
      queries: [],
      layout: grid([
        {
          id: 'shipForm',
          type: 'form',
          fields: [{ name: 'order', type: 'number', label: 'Order', required: true }],
          submitLabel: 'Ship it',
          submit: [
            {
              type: 'runAction',
              actionId: 'ship',
              arguments: { order_id: 'components.shipForm.value.order' },
            },
          ],
        },
      ]),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Ship it' }));
    await screen.findByText('Required.');
    expect(posted).toHaveLength(0);
    fireEvent.change(screen.getByLabelText(/Order/), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ship it' }));
    await screen.findByText('Done.');
    expect(posted[0]!.body.arguments).toEqual({ order_id: 12 });
  });
});
