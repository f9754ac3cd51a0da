// @vitest-environment jsdom
/**
 * The notice of a protected environment with nothing published, against a real HTTP server playing
 * the API: the Publish button follows the right `publish_versions` as `GET /api/v1/projects/demo`
 * answers it (a direct member whose user group is a development lead gets it), not the direct role
 * the projects list carries.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project } from '../../api/types.ts';
import { WorkspaceProvider } from '../../app/workspace.tsx';
import { jsonBodyOf, pathOf, serveApi } from '../../test-support/api-server.ts';
import { demoWorkspace, InConsole } from '../../test-support/console.tsx';
import { NotPublishedNotice } from './NotPublishedNotice.tsx';

let access: { role: string; roles: string[]; rights: string[] } | undefined;
let puts: { path: string; body: Record<string, unknown> }[] = [];

serveApi(async (request, response) => {
  const path = pathOf(request);
  const send = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (request.method === 'GET' && path === '/api/v1/projects/demo') {
    if (!access) send(500, { code: 'internal', status: 500, detail: 'down' });
    else send(200, { id: 'demo', name: 'Demo', createdAt: '2026-01-01T00:00:00Z', access });
    return;
  }
  if (request.method === 'PUT') {
    puts.push({ path, body: await jsonBodyOf(request) });
    send(200, { previousVersion: null });
    return;
  }
  send(404, { code: 'not_found', status: 404, detail: 'No such route.' });
});

beforeEach(() => {
  puts = [];
});
afterEach(cleanup);

// The projects list says the direct role only: a member.
const memberProject: Project = { id: 'demo', name: 'Demo', role: 'member' };
const production = { projectId: 'demo', id: 'production', name: 'Production', protected: true };

function renderNotice(kind: 'action' | 'view', onPublished: () => void = () => {}) {
  render(
    <InConsole>
      <WorkspaceProvider
        value={{
          ...demoWorkspace,
          environmentId: 'production',
          projects: [memberProject],
          project: memberProject,
          environments: [production],
          environment: production,
        }}
      >
        <NotPublishedNotice
          kind={kind}
          id="ship"
          latestVersion={3}
          onPublished={onPublished}
          onError={(error) => {
            throw error;
          }}
        />
      </WorkspaceProvider>
    </InConsole>,
  );
}

describe('the not-published notice', () => {
  it('offers Publish to a member whose user group may publish, and publishes after a confirmation', async () => {
    access = {
      role: 'development_lead',
      roles: ['development_lead', 'member'],
      rights: ['view', 'execute', 'publish_versions', 'manage_project'],
    };
    let published = 0;
    renderNotice('action', () => published++);
    expect(screen.getByText('Nothing of this action is published to Production')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Publish version 3 to Production' }));
    const dialog = screen.getByRole('dialog', { name: 'Publish version 3 to Production?' });
    expect(puts).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(published).toBe(1));
    expect(puts).toEqual([
      { path: '/api/v1/projects/demo/actions/ship/publications/production', body: { version: 3 } },
    ]);
    expect(screen.queryByText(/Ask someone who may publish/)).toBeNull();
  });

  it('publishes a view to its own publications path', async () => {
    access = { role: 'admin', roles: ['admin'], rights: ['view', 'publish_versions'] };
    renderNotice('view');
    fireEvent.click(await screen.findByRole('button', { name: 'Publish version 3 to Production' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Publish' }));
    await waitFor(() =>
      expect(puts).toEqual([
        { path: '/api/v1/projects/demo/views/ship/publications/production', body: { version: 3 } },
      ]),
    );
  });

  it('tells someone whose roles lack publish_versions whom to ask, with no button', async () => {
    // An operations lead through a group: approves reviews, does not publish.
    access = {
      role: 'operations_lead',
      roles: ['operations_lead', 'member'],
      rights: ['view', 'execute', 'approve_reviews', 'manage_cron_jobs'],
    };
    renderNotice('action');
    expect(await screen.findByText(/Ask someone who may publish versions/)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('offers no button when the access cannot be read (the server decides again anyway)', async () => {
    access = undefined;
    renderNotice('action');
    expect(await screen.findByText(/Ask someone who may publish versions/)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
