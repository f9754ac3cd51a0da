// @vitest-environment jsdom
/**
 * The builder's layout canvas and its keyboard drag and drop in the DOM, against a real HTTP server
 * for the API: the view's tree as nested labelled boxes (a grid, each tab of a tabs component),
 * every movable component described for screen readers, Space picking one up and Escape putting
 * it back with the announcements in the console's language (English and Japanese), and a cancelled
 * drag leaving no undo step. Where things land by arrow keys needs real layout: the Chromium test
 * (test/e2e/views-builder-dnd.test.ts) covers it.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { I18nProvider, type Language } from '../../../i18n/index.tsx';
import { pathOf, serveApi } from '../../../test-support/api-server.ts';
import { InConsole } from '../../../test-support/console.tsx';
import type { ViewHead } from '../view-api.ts';
import { ViewBuilderScreen } from './ViewBuilderScreen.tsx';

const head: ViewHead = {
  id: 'dnd-view',
  name: 'Drag view',
  version: 1,
  definition: {
    kind: 'visual',
    parameters: [],
    queries: [],
    layout: {
      id: 'root',
      type: 'grid',
      columns: 2,
      children: [
        { id: 'note', type: 'text', content: 'Hello' },
        {
          id: 'pages',
          type: 'tabs',
          tabs: [
            { label: 'First', children: [{ id: 'inner', type: 'markdown', content: '*x*' }] },
            { label: 'Second', children: [] },
          ],
        },
      ],
    },
  },
};

serveApi(async (request, response) => {
  const path = pathOf(request);
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (path === '/api/v1/projects/demo/views/dnd-view') return reply(200, head);
  if (path === '/api/v1/projects/demo/actions') return reply(200, { data: [] });
  if (path === '/api/v1/projects/demo/views') return reply(200, { data: [] });
  if (path === '/api/v1/projects/demo') return reply(200, { id: 'demo', name: 'Demo', allowedHosts: [] });
  return reply(404, { code: 'not_found', status: 404, detail: `No route ${path}` });
});

afterEach(cleanup);

function renderBuilder(language: Language) {
  render(
    <InConsole
      session={{ user: { kind: 'user', id: 'usr_1', email: 'dev@dogu.local' }, signOut: async () => {} }}
    >
      <I18nProvider language={language}>
        <ViewBuilderScreen params={{ viewId: 'dnd-view' }} />
      </I18nProvider>
    </InConsole>,
  );
}

/** Every text dnd-kit's live region has said since the call (it is added once the builder mounted). */
async function listen(): Promise<string[]> {
  const heard: string[] = [];
  const region = await waitFor(() => {
    const found = document.querySelector('[id^="DndLiveRegion"]');
    if (!found) throw new Error('no live region yet');
    return found;
  });
  new MutationObserver(() => heard.push(region.textContent ?? '')).observe(region, {
    childList: true,
    characterData: true,
    subtree: true,
  });
  return heard;
}

const space = (element: Element) => fireEvent.keyDown(element, { key: ' ', code: 'Space' });
const pressEscape = () =>
  fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape', code: 'Escape' });

describe('the layout canvas', () => {
  it('shows the tree as nested boxes, each movable component described, and a drag cancelled by Escape', async () => {
    renderBuilder('en');
    const layout = await screen.findByRole('list', { name: 'Layout' });
    const root = within(layout).getByRole('list', { name: 'grid root' });
    expect(root.style.getPropertyValue('--canvas-columns')).toBe('2');
    expect(within(root).getByRole('list', { name: 'tab "First" of pages' })).toBeTruthy();
    expect(within(root).getByRole('list', { name: 'tab "Second" of pages' }).textContent).toBe(
      'Drop components here',
    );

    const note = within(layout).getByRole('button', { name: /note/ });
    expect(note.getAttribute('aria-roledescription')).toBe('movable component');
    const heard = await listen();
    const instructions = document.getElementById(note.getAttribute('aria-describedby') ?? '');
    expect(instructions?.textContent).toMatch(/press Space to pick it up, the arrow keys to move it/);
    const paletteText = within(screen.getByRole('complementary', { name: 'Components' })).getByRole(
      'button',
      {
        name: '+ Text',
      },
    );
    expect(paletteText.getAttribute('aria-roledescription')).toBe('movable component');

    note.focus();
    await act(async () => {
      space(note);
    });
    // Picked up, then where it would go: React may show only the second (jsdom has no layout, so
    // which box it is over is not meaningful here).
    await waitFor(() =>
      expect(heard.join('\n')).toMatch(
        /^(Picked up Text note\.|Text note would go to position \d of \d in .+\.)$/m,
      ),
    );
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      pressEscape();
    });
    await waitFor(() => expect(heard.at(-1)).toBe('Moving Text note was cancelled: nothing changed.'));
    // Nothing changed, so nothing to undo.
    expect(screen.getByRole('button', { name: /Undo/ }).hasAttribute('disabled')).toBe(true);
    expect(
      within(root)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Text note', 'Tabs pages', 'Markdown inner']);
  });

  it('announces in Japanese when the console is in Japanese', async () => {
    renderBuilder('ja');
    const layout = await screen.findByRole('list', { name: 'レイアウト' });
    expect(within(layout).getByRole('list', { name: 'pages のタブ「First」' })).toBeTruthy();
    const inner = within(layout).getByRole('button', { name: /inner/ });
    expect(inner.getAttribute('aria-roledescription')).toBe('移動できるコンポーネント');
    const heard = await listen();
    inner.focus();
    await act(async () => {
      space(inner);
    });
    await waitFor(() =>
      expect(heard.join('\n')).toMatch(
        /^Markdown inner (を持ち上げました。|は .+ の \d 個中 \d 番目に入ります。)$/m,
      ),
    );
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      pressEscape();
    });
    await waitFor(() =>
      expect(heard.at(-1)).toBe('Markdown inner の移動を取り消しました。変更はありません。'),
    );
  });
});
