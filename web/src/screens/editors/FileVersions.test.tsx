// @vitest-environment jsdom
/**
 * Protoset versions in the data-source screen and upload tokens in project settings, against a
 * real HTTP server playing the API (it keeps what the console sends, so each step sees the last).
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectorKinds } from '../../../../shared/connectors/descriptors.ts';
import { connectors } from '../../../../shared/connectors/index.ts';
import { sampleFileConnector } from '../../../../test/support/file-connector.ts';
import { jsonBodyOf, pathOf, serveApi } from '../../test-support/api-server.ts';
import { InConsole } from '../../test-support/console.tsx';
import { DataSourcesScreen } from './DataSourcesScreen.tsx';
import { UploadTokensScreen } from './UploadTokensScreen.tsx';

const source = { id: 'files', name: 'Shop gRPC', kind: 'sample-files', environments: { development: {} } };
const versionsPath = '/api/v1/projects/demo/data-sources/files/environments/development/file-versions';

interface Version {
  id: string;
  name: string | null;
  uploadedAt: string;
  size: number;
  sha256: string;
  description: { services: string[] };
  uploadedBy: { kind: string; id: string };
}
let versions: Version[] = [];
let pinned: string | null = null;
let uploads: Record<string, unknown>[] = [];
let tokens: { id: string; name: string; prefix: string; createdAt: string; lastUsedAt: string | null }[] = [];
let issued = 0;

serveApi(async (request, response) => {
  const path = pathOf(request);
  const send = (status: number, body?: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(body === undefined ? '' : JSON.stringify(body));
  };
  if (path === '/api/v1/connector-kinds')
    return send(200, { data: connectorKinds([...connectors, sampleFileConnector]) });
  if (path === '/api/v1/projects/demo/data-sources') return send(200, { data: [source] });
  if (path === versionsPath && request.method === 'GET') {
    return send(200, {
      fileKind: { name: 'sample', maxBytes: 65536, pinField: 'sampleVersionId' },
      pinnedVersionId: pinned,
      activeVersionId: pinned ?? versions[0]?.id ?? null,
      data: versions,
    });
  }
  if (path === versionsPath && request.method === 'POST') {
    const body = await jsonBodyOf(request);
    uploads.push(body);
    const text = Buffer.from(String(body.contentBase64), 'base64').toString('utf8');
    const version: Version = {
      id: `fv_${versions.length + 1}`,
      name: (body.name as string | undefined) ?? null,
      uploadedAt: '2026-11-26T05:00:00.000Z',
      size: text.length,
      sha256: 'ab'.repeat(32),
      description: {
        services: text
          .split('\n')
          .slice(1)
          .map((l) => l.replace('service ', '')),
      },
      uploadedBy: { kind: 'user', id: 'u1' },
    };
    versions = [version, ...versions];
    return send(201, version);
  }
  if (path.endsWith('/file-pin')) {
    pinned = (await jsonBodyOf(request)).versionId as string | null;
    return send(200, { pinnedVersionId: pinned });
  }
  if (path.startsWith(`${versionsPath}/`) && request.method === 'DELETE') {
    versions = versions.filter((v) => !path.endsWith(`/${v.id}`));
    return send(204);
  }
  if (path === '/api/v1/projects/demo/upload-tokens' && request.method === 'GET')
    return send(200, { data: tokens });
  if (path === '/api/v1/projects/demo/upload-tokens' && request.method === 'POST') {
    const { name } = await jsonBodyOf(request);
    if (!name) {
      response.writeHead(422, { 'content-type': 'application/problem+json' });
      return response.end(
        JSON.stringify({
          status: 422,
          code: 'invalid_definition',
          title: 'Invalid',
          detail: '#/name: a name is required',
          errors: [{ pointer: '#/name', detail: 'a name is required' }],
        }),
      );
    }
    const token = {
      id: 'ut_1',
      name: String(name),
      prefix: 'dogu_Abc123',
      createdAt: '2026-11-26T05:00:00.000Z',
      lastUsedAt: null,
    };
    tokens = [token];
    return send(201, { ...token, token: `dogu_Abc123${'x'.repeat(37)}.ut_1-${++issued}` });
  }
  if (path.endsWith('/rotate'))
    return send(200, { ...tokens[0], token: `dogu_Rot456${'y'.repeat(37)}.ut_1-${++issued}` });
  if (path.startsWith('/api/v1/projects/demo/upload-tokens/') && request.method === 'DELETE') {
    tokens = [];
    return send(204);
  }
  send(404, { status: 404, code: 'not_found', title: 'Not found' });
});

beforeEach(() => {
  versions = [];
  pinned = null;
  uploads = [];
  tokens = [];
});
afterEach(cleanup);

async function openFiles() {
  render(
    <InConsole>
      <DataSourcesScreen />
    </InConsole>,
  );
  const row = (await screen.findByText('Shop gRPC')).closest('tr') as HTMLElement;
  fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
  return screen.findByRole('region', { name: 'sample versions' });
}

async function uploadFile(panel: HTMLElement, text: string, name: string) {
  const input = within(panel).getByLabelText('sample file') as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: [new File([text], 'api.protoset')], configurable: true });
  fireEvent.change(within(panel).getByLabelText('Version name'), { target: { value: name } });
  fireEvent.click(within(panel).getByRole('button', { name: 'Upload' }));
  await within(panel).findByText(name);
}

describe('file versions in the data-source screen', () => {
  it('shows the ids for uploads, uploads as base64, and follows the latest version', async () => {
    const panel = await openFiles();
    expect(panel.textContent).toContain('files');
    expect(panel.textContent).toContain('development');
    await within(panel).findByText('No sample uploaded for this environment yet.');
    await uploadFile(panel, 'SAMPLE\nservice Orders', 'v1');
    expect(uploads).toEqual([{ name: 'v1', contentBase64: btoa('SAMPLE\nservice Orders') }]);
    await uploadFile(panel, 'SAMPLE\nservice Orders\nservice Users', 'v2');
    const v2 = within(panel).getByText('v2').closest('tr') as HTMLElement;
    expect(v2.textContent).toContain('Orders, Users');
    expect(v2.textContent).toContain('In use (latest)');
    expect(panel.textContent).toContain('This environment uses the latest version.');
  });

  it('pins and unpins a version; a pinned version cannot be deleted, another can', async () => {
    versions = [
      {
        id: 'fv_2',
        name: 'v2',
        uploadedAt: '2026-11-26T05:00:00.000Z',
        size: 10,
        sha256: 'cd'.repeat(32),
        description: { services: ['B'] },
        uploadedBy: { kind: 'user', id: 'u' },
      },
      {
        id: 'fv_1',
        name: 'v1',
        uploadedAt: '2026-11-25T05:00:00.000Z',
        size: 9,
        sha256: 'ef'.repeat(32),
        description: { services: ['A'] },
        uploadedBy: { kind: 'user', id: 'u' },
      },
    ];
    const panel = await openFiles();
    const v1 = (await within(panel).findByText('v1')).closest('tr') as HTMLElement;
    fireEvent.click(within(v1).getByRole('button', { name: 'Pin' }));
    await within(panel).findByText('Pinned');
    expect(pinned).toBe('fv_1');
    expect(panel.textContent).toContain('This environment uses the pinned version.');
    const pinnedRow = within(panel).getByText('v1').closest('tr') as HTMLElement;
    expect(within(pinnedRow).getByRole('button', { name: 'Delete' })).toHaveProperty('disabled', true);
    const v2 = within(panel).getByText('v2').closest('tr') as HTMLElement;
    fireEvent.click(within(v2).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(panel).queryByText('v2')).toBeNull());
    expect(versions.map((v) => v.id)).toEqual(['fv_1']);
    fireEvent.click(
      within(within(panel).getByText('v1').closest('tr') as HTMLElement).getByRole('button', {
        name: 'Unpin',
      }),
    );
    await within(panel).findByText('In use (latest)');
    expect(pinned).toBeNull();
  });
});

describe('upload tokens in project settings', () => {
  it('creates a token shown once, lists it by prefix, rotates and revokes it', async () => {
    render(
      <InConsole>
        <UploadTokensScreen />
      </InConsole>,
    );
    await screen.findByText('No upload tokens yet.');
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    await screen.findByText('a name is required');
    fireEvent.change(screen.getByLabelText(/^Token name/), { target: { value: 'CI' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    const shown = (await screen.findByLabelText('New token for "CI"')) as HTMLInputElement;
    expect(shown.value).toMatch(/^dogu_Abc123x+\.ut_1-\d$/);
    expect(screen.getByText('Copy it now: it will not be shown again.')).toBeTruthy();
    const row = (await screen.findByText('dogu_Abc123…')).closest('tr') as HTMLElement;
    expect(row.textContent).toContain('Never');
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByLabelText('New token for "CI"')).toBeNull();
    expect(document.body.textContent).not.toContain('x'.repeat(37));

    fireEvent.click(within(row).getByRole('button', { name: 'Rotate' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Rotate' }));
    expect(((await screen.findByLabelText('New token for "CI"')) as HTMLInputElement).value).toMatch(
      /^dogu_Rot456/,
    );

    fireEvent.click(
      within(screen.getByText('dogu_Abc123…').closest('tr') as HTMLElement).getByRole('button', {
        name: 'Revoke',
      }),
    );
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Revoke' }));
    await screen.findByText('No upload tokens yet.');
  });
});
