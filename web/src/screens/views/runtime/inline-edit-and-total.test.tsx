// @vitest-environment jsdom
/**
 * A table column edited in its cell and saved through an action (decision 0220): keyboard only
 * (Enter or F2 edits, Enter saves, Escape cancels), the action's Problem Details shown in the cell,
 * the table's query run again on success; and a server-paged table with a total count (decision
 * 0221): "Rows X–Y of N", Last and First. The API is a real HTTP server playing the console's API.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonBodyOf, pathOf, serveApi } from '../../../test-support/api-server.ts';
import { demoWorkspace, InConsole } from '../../../test-support/console.tsx';
import type { VisualViewDefinition } from '../view-api.ts';
import { totalOf } from './components/ServerPager.tsx';
import { ConfirmRunProvider } from './confirm-run.tsx';
import { ViewRenderer } from './ViewRenderer.tsx';

afterEach(cleanup);

/** 45 orders in the "database"; status changes persist between runs of one test. */
let statuses: string[] = [];
let posted: { actionId: string; args: Record<string, unknown> }[] = [];
beforeEach(() => {
  statuses = Array.from({ length: 45 }, () => 'paid');
  posted = [];
});

serveApi(async (request, response) => {
  const reply = (status: number, body: unknown, type = 'application/json') => {
    response.writeHead(status, { 'content-type': type });
    response.end(JSON.stringify(body));
  };
  const match =
    /^\/public\/v1\/projects\/demo\/environments\/development\/actions\/([\w-]+)\/executions$/.exec(
      pathOf(request),
    );
  if (!match) return reply(404, { title: 'Not found', status: 404 }, 'application/problem+json');
  const args = ((await jsonBodyOf(request)).arguments ?? {}) as Record<string, unknown>;
  posted.push({ actionId: match[1]!, args });
  const succeeded = (rows: Record<string, unknown>[]) =>
    reply(200, {
      id: `exe_${posted.length}`,
      status: 'succeeded',
      results: [{ status: 'succeeded', title: 'r', columns: [], rows, rowCount: rows.length, messages: [] }],
    });
  if (match[1] === 'list-orders') {
    const offset = Number(args.offset);
    const rows = statuses
      .map((status, i) => ({ id: i + 1, status, total_count: String(statuses.length) }))
      .slice(offset, offset + Number(args.limit));
    return succeeded(rows);
  }
  if (match[1] === 'set-status') {
    if (!['paid', 'shipped'].includes(String(args.status))) {
      return reply(
        422,
        {
          type: 'about:blank',
          title: 'Invalid arguments',
          status: 422,
          code: 'invalid_arguments',
          detail: `status must be paid or shipped, not '${args.status}'.`,
          errors: [{ pointer: '#/arguments/status', detail: 'must be paid or shipped' }],
        },
        'application/problem+json',
      );
    }
    statuses[Number(args.order_id) - 1] = String(args.status);
    return succeeded([{ id: args.order_id, status: args.status }]);
  }
  return reply(404, { title: 'Not found', status: 404 }, 'application/problem+json');
});

const definition: VisualViewDefinition = {
  kind: 'visual',
  parameters: [],
  queries: [
    {
      id: 'orders',
      actionId: 'list-orders',
      arguments: {},
      runOn: 'load',
      paging: {
        limitParameter: 'limit',
        offsetParameter: 'offset',
        pageSize: 20,
        totalCount: 'rows[0]?.total_count',
      },
    },
  ],
  layout: {
    id: 'root',
    type: 'grid',
    columns: 1,
    children: [
      {
        id: 't1',
        type: 'table',
        title: 'Orders',
        query: 'orders',
        columns: [
          { field: 'id', label: 'Order' },
          {
            field: 'status',
            label: 'Status',
            edit: { actionId: 'set-status', arguments: { order_id: 'row.id', status: 'value' } },
          },
        ],
        rowClick: [{ type: 'toast', message: 'Row {{ row.id }} clicked' }],
      },
    ],
  },
};

function show() {
  render(
    <InConsole
      session={{ user: { kind: 'user', id: 'usr_1', email: 'ops@dogu.local' }, signOut: async () => {} }}
    >
      <ConfirmRunProvider environmentName="Development">
        <ViewRenderer
          viewId="v1"
          definition={definition}
          args={{}}
          user={{ id: 'usr_1', email: 'ops@dogu.local' }}
          projectId="demo"
          environmentId="development"
          href={demoWorkspace.href}
        />
      </ConfirmRunProvider>
    </InConsole>,
  );
}

const toasts = () => document.querySelector('.toasts')?.textContent ?? '';
const runsOf = (actionId: string) => posted.filter((p) => p.actionId === actionId);

describe('inline edit', () => {
  it('edits with the keyboard: F2 opens, Escape cancels without a run, Enter saves and reloads the page', async () => {
    show();
    const cell = (await screen.findAllByRole('button', { name: /^Edit Status:\s?paid/ }))[1]!;
    expect(runsOf('list-orders')).toHaveLength(1);
    // Escape: nothing runs and the cell shows its value again, focused.
    cell.focus();
    fireEvent.keyDown(cell, { key: 'F2' });
    const input = await screen.findByRole('textbox', { name: 'New Status' });
    await waitFor(() => expect(document.activeElement).toBe(input));
    expect((input as HTMLInputElement).value).toBe('paid');
    fireEvent.change(input, { target: { value: 'lost' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'New Status' })).toBeNull());
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Edit Status: paid'), {
      timeout: 5000,
    });
    expect(runsOf('set-status')).toEqual([]);
    expect(toasts()).toBe('');

    // Enter opens the first row's cell; Enter in the input saves the typed value with the row's id.
    const first = screen.getAllByRole('button', { name: /^Edit Status:\s?paid/ })[0]!;
    fireEvent.keyDown(first, { key: 'Enter' });
    const editor = await screen.findByRole('textbox', { name: 'New Status' });
    fireEvent.change(editor, { target: { value: 'shipped' } });
    fireEvent.keyDown(editor, { key: 'Enter' });
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'New Status' })).toBeNull());
    expect(runsOf('set-status')).toEqual([
      { actionId: 'set-status', args: { order_id: 1, status: 'shipped' } },
    ]);
    // The table's query ran again (same page) and shows the saved value; the row's click did not run.
    await waitFor(() => expect(runsOf('list-orders')).toHaveLength(2));
    expect(runsOf('list-orders')[1]!.args).toEqual({ limit: 20, offset: 0 });
    const table = screen.getByRole('table', { name: 'Orders' });
    await waitFor(() => expect(within(table).getAllByRole('row')[1]!.textContent).toContain('shipped'));
    expect(toasts()).toBe('');
  });

  it("shows the action's Problem Details detail in the cell and keeps the input to correct it", async () => {
    show();
    const cell = (await screen.findAllByRole('button', { name: /^Edit Status:\s?paid/ }))[2]!;
    fireEvent.click(cell);
    const editor = await screen.findByRole('textbox', { name: 'New Status' });
    fireEvent.change(editor, { target: { value: 'lost' } });
    fireEvent.keyDown(editor, { key: 'Enter' });
    const problem = await screen.findByText(/status must be paid or shipped, not 'lost'/);
    expect(problem.closest('.view-cell-editor')).not.toBeNull();
    expect(screen.getByRole('textbox', { name: 'New Status' })).toBe(editor);
    expect(editor.getAttribute('aria-invalid')).toBe('true');
    // No reload after a failure.
    expect(runsOf('list-orders')).toHaveLength(1);

    fireEvent.change(editor, { target: { value: 'shipped' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'New Status' })).toBeNull());
    expect(runsOf('set-status').map((p) => p.args)).toEqual([
      { order_id: 3, status: 'lost' },
      { order_id: 3, status: 'shipped' },
    ]);
  });
});

describe('server paging with a total count', () => {
  it('says which rows of how many are shown and jumps to the last and the first page', async () => {
    show();
    await screen.findByText('Rows 1–20 of 45');
    expect(screen.getByRole('button', { name: 'First page' }).hasAttribute('disabled')).toBe(true);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Last page (3)' }));
    });
    await screen.findByText('Rows 41–45 of 45');
    expect(runsOf('list-orders').at(-1)!.args).toEqual({ limit: 20, offset: 40 });
    expect(screen.getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Last page (3)' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await screen.findByText('Rows 21–40 of 45');
    fireEvent.click(screen.getByRole('button', { name: 'First page' }));
    await screen.findByText('Rows 1–20 of 45');
    expect(runsOf('list-orders').map((p) => p.args.offset)).toEqual([0, 40, 20, 0]);
  });

  it('reads a total from numbers and SQL count text, nothing else', () => {
    expect(totalOf(45)).toBe(45);
    expect(totalOf('134')).toBe(134);
    expect(totalOf(0)).toBe(0);
    expect(totalOf(undefined)).toBeUndefined();
    expect(totalOf('')).toBeUndefined();
    expect(totalOf(-1)).toBeUndefined();
    expect(totalOf(2.5)).toBeUndefined();
    expect(totalOf('many')).toBeUndefined();
  });
});
