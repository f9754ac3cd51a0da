// @vitest-environment jsdom
/**
 * Undo/redo and renaming in the builder, against a real HTTP server for the API: typing in one
 * field is one step (Ctrl+Z / Ctrl+Shift+Z and the toolbar buttons), and renaming a component
 * rewrites the expressions that refer to it — not a string literal that contains the same text —
 * so the preview keeps working and the saved definition holds the new id; Ctrl+Z undoes the rename.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonBodyOf, pathOf, serveApi } from '../../../test-support/api-server.ts';
import { InConsole } from '../../../test-support/console.tsx';
import type { ViewHead, VisualViewDefinition } from '../view-api.ts';
import { ViewBuilderScreen } from './ViewBuilderScreen.tsx';

const head: ViewHead = {
  id: 'rename-view',
  name: 'Rename view',
  version: 1,
  definition: {
    kind: 'visual',
    parameters: [],
    queries: [],
    layout: {
      id: 'root',
      type: 'grid',
      columns: 1,
      children: [
        { id: 'form1', type: 'form', fields: [{ name: 'q', type: 'text' }], submit: [] },
        {
          id: 'note',
          type: 'text',
          content: "Form {{ components.form1 ? 'found' : 'missing' }} / {{ 'components.form1' }}",
        },
      ],
    },
  },
};

let saved: VisualViewDefinition[] = [];
let savedGroups: unknown[] = [];

serveApi(async (request, response) => {
  const path = pathOf(request);
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (path === '/api/v1/projects/demo/views/rename-view') {
    if (request.method === 'PUT') {
      const body = await jsonBodyOf(request);
      saved.push(body.definition as VisualViewDefinition);
      savedGroups.push(body.groupId);
      return reply(200, { ...head, ...body, version: 2 });
    }
    return reply(200, head);
  }
  if (path === '/api/v1/projects/demo/actions') return reply(200, { data: [] });
  if (path === '/api/v1/projects/demo/views') return reply(200, { data: [] });
  if (path === '/api/v1/projects/demo/action-groups')
    return reply(200, { data: [{ id: 'operations', name: 'Operations', actionIds: [] }] });
  if (path === '/api/v1/projects/demo') return reply(200, { id: 'demo', name: 'Demo', allowedHosts: [] });
  return reply(404, { code: 'not_found', status: 404, detail: `No route ${path}` });
});

beforeEach(() => {
  saved = [];
  savedGroups = [];
});
afterEach(cleanup);

function renderBuilder() {
  render(
    <InConsole
      session={{ user: { kind: 'user', id: 'usr_1', email: 'dev@dogu.local' }, signOut: async () => {} }}
    >
      <ViewBuilderScreen params={{ viewId: 'rename-view' }} />
    </InConsole>,
  );
}

const outline = () => screen.getByRole('list', { name: 'Layout' });
const press = (key: string, shiftKey = false) =>
  fireEvent.keyDown(document.activeElement ?? document.body, { key, ctrlKey: true, shiftKey });

describe('undo and redo in the builder', () => {
  it('undoes a field typed into as one step, and redoes it', async () => {
    renderBuilder();
    fireEvent.click(
      within(await screen.findByRole('list', { name: 'Layout' })).getByRole('button', { name: /note/ }),
    );
    const title = await screen.findByRole('textbox', { name: 'Title (template)' });
    title.focus();
    for (const text of ['O', 'Or', 'Ord', 'Orders']) fireEvent.change(title, { target: { value: text } });
    const preview = screen.getByRole('region', { name: /Preview/ });
    expect(within(preview).getByText('Orders')).toBeTruthy();

    press('z');
    await waitFor(() => expect(within(preview).queryByText('Orders')).toBeNull());
    expect((screen.getByRole('textbox', { name: 'Title (template)' }) as HTMLInputElement).value).toBe('');
    expect(screen.getByRole('button', { name: /Undo/ }).hasAttribute('disabled')).toBe(true);

    press('Z', true);
    expect(await within(preview).findByText('Orders')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Undo/ }));
    await waitFor(() => expect(within(preview).queryByText('Orders')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: /Redo/ }));
    expect(await within(preview).findByText('Orders')).toBeTruthy();
  });
});

describe('renaming a component in the builder', () => {
  it('refuses a bad or taken id, follows the references, keeps string literals', async () => {
    renderBuilder();
    const preview = await screen.findByRole('region', { name: /Preview/ });
    expect(await within(preview).findByText('Form found / components.form1')).toBeTruthy();
    fireEvent.click(
      within(await screen.findByRole('list', { name: 'Layout' })).getByRole('button', { name: /form1/ }),
    );

    const id = screen.getByRole('textbox', { name: 'Component id' });
    fireEvent.change(id, { target: { value: '9lives' } });
    expect(screen.getByRole('alert').textContent).toContain('“9lives” cannot be an id');
    expect(screen.getByRole('button', { name: 'Rename' }).hasAttribute('disabled')).toBe(true);
    fireEvent.change(id, { target: { value: 'note' } });
    expect(screen.getByRole('alert').textContent).toBe('Another component is already called “note”.');

    fireEvent.change(id, { target: { value: 'search_form' } });
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.keyDown(id, { key: 'Enter' });
    await waitFor(() => expect(within(outline()).getByRole('button', { name: /search_form/ })).toBeTruthy());
    expect(within(outline()).queryByRole('button', { name: /form1/ })).toBeNull();
    expect(within(preview).getByText('Form found / components.form1')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    const children = (saved[0]!.layout as { children: { id: string; content?: string }[] }).children;
    expect(children.map((c) => c.id)).toEqual(['search_form', 'note']);
    expect(children[1]!.content).toBe(
      "Form {{ components.search_form ? 'found' : 'missing' }} / {{ 'components.form1' }}",
    );
  });

  it('undoes a rename with Ctrl+Z', async () => {
    renderBuilder();
    const preview = await screen.findByRole('region', { name: /Preview/ });
    fireEvent.click(
      within(await screen.findByRole('list', { name: 'Layout' })).getByRole('button', { name: /form1/ }),
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Component id' }), { target: { value: 'f2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(within(outline()).getByRole('button', { name: /f2/ })).toBeTruthy());
    press('z');
    await waitFor(() => expect(within(outline()).getByRole('button', { name: /form1/ })).toBeTruthy());
    expect(within(outline()).queryByRole('button', { name: /f2/ })).toBeNull();
    expect(within(preview).getByText('Form found / components.form1')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(JSON.stringify(saved[0])).not.toContain('f2');
  });

  it('gives the rename field and the property panel keys of their own (React warns about no duplicate)', async () => {
    const errors = vi.spyOn(console, 'error');
    try {
      renderBuilder();
      fireEvent.click(
        within(await screen.findByRole('list', { name: 'Layout' })).getByRole('button', { name: /form1/ }),
      );
      await screen.findByRole('textbox', { name: 'Component id' });
      await screen.findByRole('textbox', { name: 'Submit button label' });
      const duplicates = errors.mock.calls.filter((call) => /same key/.test(String(call[0])));
      expect(duplicates).toEqual([]);
    } finally {
      errors.mockRestore();
    }
  });
});

describe('the view settings in the builder', () => {
  it('lists the view under an action group chosen from the project’s groups', async () => {
    renderBuilder();
    const group = (await screen.findByRole('combobox', { name: 'Action group' })) as HTMLSelectElement;
    expect(group.value).toBe('');
    await screen.findByRole('option', { name: 'Operations' });
    fireEvent.change(group, { target: { value: 'operations' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(savedGroups).toEqual(['operations']));
  });
});
