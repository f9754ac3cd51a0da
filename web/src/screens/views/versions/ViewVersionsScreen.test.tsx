// @vitest-environment jsdom
/**
 * A view's version history against a real HTTP server playing the views API: the list (who, when,
 * where published), the line diff of two versions, and rollback — confirmed in a dialog, it saves
 * the chosen version's input again through `PUT /views/{id}` (a new version) with a change message.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonBodyOf, pathOf, serveApi } from '../../../test-support/api-server.ts';
import { InConsole } from '../../../test-support/console.tsx';
import { lineDiff } from './line-diff.ts';
import { ViewVersionsScreen } from './ViewVersionsScreen.tsx';

const input = (title: string) => ({
  id: 'orders',
  name: 'Orders',
  definition: { kind: 'visual', root: { id: 'root', type: 'text', text: title } },
});

let versions: {
  version: number;
  definition: ReturnType<typeof input>;
  author: { email: string };
  createdAt: string;
  message: string;
}[];
let puts: { path: string; body: Record<string, unknown> }[];

serveApi(async (request, response) => {
  const path = pathOf(request);
  const send = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const latest = versions[0]!.version;
  if (request.method === 'GET' && path === '/api/v1/projects/demo/views/orders/versions') {
    send(200, {
      latest,
      versions,
      publications: [{ environmentId: 'development', version: 1 }],
    });
    return;
  }
  const one = /^\/api\/v1\/projects\/demo\/views\/orders\/versions\/(\d+)$/.exec(path);
  if (request.method === 'GET' && one) {
    const found = versions.find((v) => v.version === Number(one[1]));
    if (found) send(200, found);
    else send(404, { code: 'not_found', status: 404, detail: 'No such version.' });
    return;
  }
  if (request.method === 'PUT' && path === '/api/v1/projects/demo/views/orders') {
    const body = await jsonBodyOf(request);
    puts.push({ path, body });
    const { changeMessage, ...rest } = body;
    versions.unshift({
      version: latest + 1,
      definition: rest as ReturnType<typeof input>,
      author: { email: 'admin@dogu.local' },
      createdAt: '2026-11-28T09:00:00Z',
      message: String(changeMessage ?? ''),
    });
    send(200, { ...rest, version: latest + 1 });
    return;
  }
  send(404, { code: 'not_found', status: 404, detail: 'No such route.' });
});

beforeEach(() => {
  puts = [];
  versions = [
    {
      version: 2,
      // The same keys in another order (as a store may give them back): only the title differs.
      definition: { definition: input('Orders, new title').definition, name: 'Orders', id: 'orders' },
      author: { email: 'bob@dogu.local' },
      createdAt: '2026-11-27T10:00:00Z',
      message: 'New title',
    },
    {
      version: 1,
      definition: input('Orders'),
      author: { email: 'alice@dogu.local' },
      createdAt: '2026-11-26T10:00:00Z',
      message: '',
    },
  ];
});
afterEach(cleanup);

const renderScreen = () =>
  render(
    <InConsole
      environments={[{ projectId: 'demo', id: 'development', name: 'Development', protected: false }]}
    >
      <ViewVersionsScreen params={{ viewId: 'orders' }} />
    </InConsole>,
  );

describe('a view’s version history', () => {
  it('lists who saved each version, where it is published, and the line diff of the last two', async () => {
    renderScreen();
    const table = await screen.findByRole('table', { name: 'Saved versions' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('bob@dogu.local');
    expect(rows[0]!.textContent).toContain('New title');
    expect(rows[1]!.textContent).toContain('alice@dogu.local');
    expect(rows[1]!.textContent).toContain('Development');
    const diff = await screen.findByRole('region', { name: 'Differences from version 1 to version 2' });
    const removed = [...diff.querySelectorAll('[data-kind="removed"]')].map((e) => e.textContent);
    const added = [...diff.querySelectorAll('[data-kind="added"]')].map((e) => e.textContent);
    expect(removed).toEqual([expect.stringContaining('"text": "Orders"')]);
    expect(added).toEqual([expect.stringContaining('"text": "Orders, new title"')]);
    expect(removed[0]).toContain('Removed:');
  });

  it('rolls back after a confirmation: the chosen version is saved again as a new version', async () => {
    renderScreen();
    const table = await screen.findByRole('table', { name: 'Saved versions' });
    // The latest version has nothing to roll back to.
    expect(within(table).queryByRole('button', { name: 'Roll back to v2' })).toBeNull();
    fireEvent.click(within(table).getByRole('button', { name: 'Roll back to v1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Roll back to version 1?' });
    expect(puts).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Roll back' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]!.body).toEqual({ ...input('Orders'), changeMessage: 'Rolled back to version 1' });
    await screen.findByText('Version 1 saved again as version 3.');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    // The diff now compares the chosen version with the new one: the same definition.
    await screen.findByText('Versions 1 and 3 have the same definition.');
  });
});

describe('lineDiff', () => {
  it('keeps common lines and marks the changed ones in order', () => {
    expect(lineDiff('a\nb\nc\nd', 'a\nx\nc\nd\ne')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'x' },
      { kind: 'same', text: 'c' },
      { kind: 'same', text: 'd' },
      { kind: 'added', text: 'e' },
    ]);
    expect(lineDiff('same', 'same')).toEqual([{ kind: 'same', text: 'same' }]);
  });
});
