// @vitest-environment jsdom
/**
 * Project settings → bridges against a real HTTP server playing the API: the list shows last
 * contact, version and fingerprints; saving PUTs the address and each pasted PEM certificate apart
 * (a rotation pastes two); removing asks first.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonBodyOf, pathOf, serveApi } from '../../test-support/api-server.ts';
import { InConsole } from '../../test-support/console.tsx';
import { BridgesScreen } from './BridgesScreen.tsx';

const pem = (n: number) => `-----BEGIN CERTIFICATE-----\nMII${n}\n-----END CERTIFICATE-----`;
const office = {
  id: 'office',
  name: 'Office network',
  url: 'https://bridge.example.com:8443',
  certificates: [`${pem(1)}\n`],
  fingerprints: [
    'AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99',
  ],
  lastContactAt: null,
  version: '0.1.0',
  timeoutMs: 30000,
};

let calls: { method: string; path: string; body?: Record<string, unknown> }[] = [];

serveApi(async (request, response) => {
  const path = pathOf(request);
  const body = request.method === 'PUT' ? await jsonBodyOf(request) : undefined;
  calls.push({ method: request.method ?? '', path, ...(body ? { body } : {}) });
  if (request.method === 'DELETE') {
    response.writeHead(204);
    response.end();
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(path.endsWith('/bridges') ? { data: [office] } : office));
});
beforeEach(() => {
  calls = [];
});
afterEach(cleanup);

describe('project settings: bridges', () => {
  it('lists a bridge, saves a rotation with both certificates, and removes after a confirmation', async () => {
    render(
      <InConsole>
        <BridgesScreen />
      </InConsole>,
    );
    const row = (await screen.findByText('https://bridge.example.com:8443')).closest('tr')!;
    expect(row.textContent).toContain('Never');
    expect(row.textContent).toContain('0.1.0');
    expect(row.textContent).toContain('time-out 30000 ms');

    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const certificates = screen.getByLabelText(/Pinned certificates/) as HTMLTextAreaElement;
    fireEvent.change(certificates, { target: { value: `${pem(1)}\n\n${pem(2)}\n` } });
    fireEvent.click(screen.getByRole('button', { name: 'Save bridge' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')).toEqual({
      method: 'PUT',
      path: '/api/v1/projects/demo/bridges/office',
      body: {
        name: 'Office network',
        url: 'https://bridge.example.com:8443',
        certificates: [`${pem(1)}\n`, `${pem(2)}\n`],
      },
    });

    fireEvent.click(within(row).getByRole('button', { name: 'Remove' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove bridge "office"?' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
        '/api/v1/projects/demo/bridges/office',
      ]),
    );
  });
});
