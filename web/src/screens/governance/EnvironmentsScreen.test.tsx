// @vitest-environment jsdom
/**
 * Project settings → environments against a real HTTP server playing the API: the list shows which
 * environments are protected; someone with `manage_project` (as `GET /api/v1/projects/demo` answers
 * it) protects one at once and unprotects a production-like one only after a confirmation naming it;
 * a member without the right sees the list read-only with the reason.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Environment } from '../../api/types.ts';
import { WorkspaceProvider } from '../../app/workspace.tsx';
import { jsonBodyOf, pathOf, serveApi } from '../../test-support/api-server.ts';
import { demoWorkspace, InConsole } from '../../test-support/console.tsx';
import { EnvironmentsScreen } from './EnvironmentsScreen.tsx';
import { looksLikeProduction } from './production-like.ts';

let environments: Environment[] = [];
let access: { role: string; roles: string[]; rights: string[] };
let patches: { path: string; body: Record<string, unknown> }[] = [];

const manager = {
  role: 'development_lead',
  roles: ['development_lead', 'member'],
  rights: ['view', 'execute', 'manage_project', 'publish_versions'],
};

serveApi(async (request, response) => {
  const path = pathOf(request);
  const send = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (request.method === 'GET' && path === '/api/v1/projects/demo') {
    send(200, { id: 'demo', name: 'Demo', createdAt: '2026-01-01T00:00:00Z', access });
    return;
  }
  if (request.method === 'GET' && path === '/api/v1/projects/demo/environments') {
    send(200, { data: environments });
    return;
  }
  const match = /^\/api\/v1\/projects\/demo\/environments\/([^/]+)$/.exec(path);
  if (request.method === 'PATCH' && match) {
    const body = await jsonBodyOf(request);
    patches.push({ path, body });
    const id = decodeURIComponent(match[1]!);
    if (!environments.some((e) => e.id === id)) {
      send(404, { code: 'not_found', status: 404, detail: `Environment '${id}' was not found.` });
      return;
    }
    environments = environments.map((e) => (e.id === id ? { ...e, ...body } : e));
    send(
      200,
      environments.find((e) => e.id === id),
    );
    return;
  }
  send(404, { code: 'not_found', status: 404, detail: `No route ${request.method} ${path}` });
});

beforeEach(() => {
  environments = [
    { projectId: 'demo', id: 'development', name: 'Development', protected: false },
    { projectId: 'demo', id: 'production', name: 'Production', protected: true },
    { projectId: 'demo', id: 'qa', name: 'QA', protected: true },
  ];
  access = manager;
  patches = [];
});
afterEach(cleanup);

function renderScreen(onReload: () => void = () => {}) {
  render(
    <InConsole>
      <WorkspaceProvider value={{ ...demoWorkspace, reloadEnvironments: onReload }}>
        <EnvironmentsScreen />
      </WorkspaceProvider>
    </InConsole>,
  );
}

const rowOf = async (name: string) => (await screen.findByText(name, { selector: 'td' })).closest('tr')!;

describe('project settings: environments', () => {
  it('protects at once, and unprotects production only after a confirmation naming it', async () => {
    let reloads = 0;
    renderScreen(() => reloads++);
    const development = await rowOf('Development');
    expect(development.textContent).toContain('Not protected');
    expect((await rowOf('Production')).textContent).toContain('Protected');
    expect(screen.queryByRole('note')).toBeNull();

    fireEvent.click(await within(development).findByRole('button', { name: 'Protect Development' }));
    await waitFor(() =>
      expect(patches).toEqual([
        { path: '/api/v1/projects/demo/environments/development', body: { protected: true } },
      ]),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() =>
      expect(within(development).getByRole('button', { name: 'Stop protecting Development' })).toBeTruthy(),
    );
    expect(reloads).toBe(1);
    expect(screen.getByText('Development is protected: only published versions run there.')).toBeTruthy();

    // Production: the dialog names it; Cancel changes nothing.
    const production = await rowOf('Production');
    fireEvent.click(within(production).getByRole('button', { name: 'Stop protecting Production' }));
    const dialog = screen.getByRole('dialog', { name: 'Stop protecting Production?' });
    expect(dialog.textContent).toContain('will then run and show its latest saved version there at once');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(patches).toHaveLength(1);

    // Escape closes it too (keyboard); confirming sends the change.
    fireEvent.click(within(production).getByRole('button', { name: 'Stop protecting Production' }));
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(within(production).getByRole('button', { name: 'Stop protecting Production' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Stop protecting' }));
    await waitFor(() => expect(patches).toHaveLength(2));
    expect(patches[1]).toEqual({
      path: '/api/v1/projects/demo/environments/production',
      body: { protected: false },
    });
    await waitFor(() =>
      expect(within(production).getByRole('button', { name: 'Protect Production' })).toBeTruthy(),
    );

    // QA is not production-like: unprotected at once.
    fireEvent.click(within(await rowOf('QA')).getByRole('button', { name: 'Stop protecting QA' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(patches).toHaveLength(3));
    expect(patches[2]!.body).toEqual({ protected: false });
  });

  it('is read-only for a member without manage_project, saying why', async () => {
    access = { role: 'operations_lead', roles: ['operations_lead', 'member'], rights: ['view', 'execute'] };
    renderScreen();
    const note = await screen.findByRole('note');
    expect(note.textContent).toContain(
      "your roles (Operations lead, Member) lack the right 'manage_project'",
    );
    expect((await rowOf('Production')).textContent).toContain('Protected');
    expect(screen.queryAllByRole('button')).toEqual([]);
  });

  it('shows the server refusal when a change is refused', async () => {
    environments = [{ projectId: 'demo', id: 'ghost', name: 'Ghost', protected: false }];
    renderScreen();
    const row = await rowOf('Ghost');
    // The server no longer has it: the PATCH answers 404 and the screen says so.
    environments = [];
    fireEvent.click(await within(row).findByRole('button', { name: 'Protect Ghost' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain("Environment 'ghost' was not found."),
    );
  });
});

describe('which environments count as production', () => {
  it('matches the word in the id or name, and 本番', () => {
    const like = (id: string, name = id) => looksLikeProduction({ id, name });
    expect(like('production')).toBe(true);
    expect(like('prod')).toBe(true);
    expect(like('eu-production')).toBe(true);
    expect(like('prod2')).toBe(true);
    expect(like('prd')).toBe(true);
    expect(like('env-a', 'Live (EU)')).toBe(true);
    expect(like('honban', '本番環境')).toBe(true);
    expect(like('development')).toBe(false);
    expect(like('staging')).toBe(false);
    expect(like('preproduction')).toBe(false);
    expect(like('products', 'Products')).toBe(false);
    expect(like('delivery', 'Delivery')).toBe(false);
  });
});
