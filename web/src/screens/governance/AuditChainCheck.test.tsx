// @vitest-environment jsdom
/**
 * "Verify chain" against a real HTTP server playing the API's verification answer: an intact chain is
 * said with its count and head, a broken one names the first bad entry, in English and Japanese, and
 * the button is reached and pressed from the keyboard.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkspaceProvider } from '../../app/workspace.tsx';
import { ToastProvider } from '../../components/index.ts';
import { I18nProvider } from '../../i18n/index.tsx';
import { pathOf, serveApi } from '../../test-support/api-server.ts';
import { demoWorkspace } from '../../test-support/console.tsx';
import { AuditChainCheck } from './AuditChainCheck.tsx';
import type { AuditVerification } from './api.ts';

let answer: AuditVerification;
let asked = 0;

serveApi(async (request, response) => {
  if (request.method === 'GET' && pathOf(request) === '/api/v1/projects/demo/audit-log/verification') {
    asked++;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer));
    return;
  }
  response.writeHead(404, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ code: 'not_found', status: 404, detail: 'No route' }));
});
afterEach(cleanup);

function renderCheck(language: 'en' | 'ja') {
  render(
    <I18nProvider language={language}>
      <ToastProvider>
        <WorkspaceProvider value={demoWorkspace}>
          <AuditChainCheck />
        </WorkspaceProvider>
      </ToastProvider>
    </I18nProvider>,
  );
}

const intact: AuditVerification = {
  ok: true,
  checked: 42,
  unchained: 3,
  last: { seq: 42, entryId: 'aud_42', hash: '0123456789abcdef0123' },
};
const broken: AuditVerification = {
  ok: false,
  checked: 11,
  unchained: 0,
  problem: { kind: 'changed', seq: 12, entryId: 'aud_12', message: 'Entry aud_12 (#12) was changed.' },
};

describe('Verify chain', () => {
  it('says an intact chain with its count and head, announced as a status', async () => {
    answer = intact;
    renderCheck('en');
    const button = screen.getByRole('button', { name: 'Verify chain' });
    button.focus();
    expect(document.activeElement).toBe(button);
    fireEvent.click(button);
    const status = await screen.findByText(/Chain intact/);
    expect(status.textContent).toBe(
      'Chain intact: 42 entries checked; head #42 (0123456789abcdef…). 3 older entries predate the chain and are not covered.',
    );
    expect(screen.getAllByRole('status').some((region) => region.contains(status))).toBe(true);
    expect(asked).toBeGreaterThan(0);
  });

  it('names the first bad entry, in English and in Japanese', async () => {
    answer = broken;
    renderCheck('en');
    fireEvent.click(screen.getByRole('button', { name: 'Verify chain' }));
    expect((await screen.findByText(/Chain broken/)).textContent).toBe(
      'Chain broken: entry aud_12 (#12) was changed.',
    );
    cleanup();
    answer = { ...broken, problem: { kind: 'removed', seq: 7, entryId: 'aud_6', message: '' } };
    renderCheck('ja');
    fireEvent.click(screen.getByRole('button', { name: 'チェーンを検証' }));
    expect((await screen.findByText(/チェーンが壊れています/)).textContent).toBe(
      'チェーンが壊れています: エントリー #7（aud_6 の次）が削除されました。',
    );
  });
});
