// @vitest-environment jsdom
/**
 * The notification settings screen against a real HTTP server playing the API: targets, rules and
 * the delivery log are shown; "send test" posts to the target's test route and says the outcome;
 * a new webhook target is posted with a secret generated in the browser; a refused URL is shown at
 * its field; every key the screen uses exists in English and Japanese.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceProvider } from '../../app/workspace.tsx';
import { ToastProvider } from '../../components/index.ts';
import { I18nProvider } from '../../i18n/index.tsx';
import { notificationsEn } from '../../i18n/notifications.en.ts';
import { notificationsJa } from '../../i18n/notifications.ja.ts';
import { jsonBodyOf, pathOf, serveApi } from '../../test-support/api-server.ts';
import { demoWorkspace, InConsole } from '../../test-support/console.tsx';
import type { Delivery, Settings } from './api.ts';
import { NotificationsScreen } from './NotificationsScreen.tsx';

const settings: Settings = {
  allowPrivateNetworks: false,
  targets: [
    {
      id: 'ntt_1',
      name: 'ops hook',
      kind: 'webhook',
      url: 'https://hooks.example.com/dogu',
      hasSecret: true,
    },
  ],
  rules: [
    {
      id: 'ntr_1',
      subject: { kind: 'cron_job', id: 'job_1' },
      events: ['failure', 'recovery'],
      targetIds: ['ntt_1'],
    },
  ],
};
const delivery: Delivery = {
  id: 'ntf_1',
  targetId: 'ntt_1',
  targetName: 'ops hook',
  targetKind: 'webhook',
  event: 'failure',
  status: 'failed',
  attempts: [
    {
      attempt: 5,
      at: '2026-11-26T00:00:00Z',
      durationMs: 12,
      statusCode: 500,
      error: 'The receiver answered HTTP 500.',
    },
  ],
  createdAt: '2026-11-26T00:00:00Z',
};

let posted: { path: string; body: Record<string, unknown> }[] = [];

serveApi(async (request, response) => {
  const path = pathOf(request);
  const send = (status: number, body: unknown) => {
    response.writeHead(status, {
      'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
    });
    response.end(JSON.stringify(body));
  };
  if (request.method === 'POST') {
    const body = await jsonBodyOf(request);
    posted.push({ path, body });
    if (path.endsWith('/test'))
      return send(200, {
        ...delivery,
        id: 'ntf_2',
        event: 'test',
        status: 'succeeded',
        attempts: [{ attempt: 1, at: '', durationMs: 3, statusCode: 204 }],
      });
    if (String(body.url ?? '').includes('127.0.0.1')) {
      return send(400, {
        code: 'bad_request',
        status: 400,
        title: 'Bad request',
        detail: 'The target 127.0.0.1 is on a loopback or private network.',
        errors: [{ pointer: '#/url', detail: 'The target 127.0.0.1 is on a loopback or private network.' }],
      });
    }
    return send(201, { id: 'ntt_2', name: body.name, kind: body.kind, hasSecret: true });
  }
  if (path === '/api/v1/projects/demo/notifications') return send(200, settings);
  if (path === '/api/v1/projects/demo/notifications/deliveries')
    return send(200, { data: [delivery], has_more: false });
  if (path === '/api/v1/projects/demo/environments/development/cron-jobs')
    return send(200, { data: [{ id: 'job_1', name: 'nightly export' }] });
  return send(200, { data: [] });
});
beforeEach(() => {
  posted = [];
});
afterEach(cleanup);

const renderScreen = () =>
  render(
    <InConsole>
      <NotificationsScreen />
    </InConsole>,
  );

describe('notification settings', () => {
  it('shows targets, rules with the cron job name, and the delivery log', async () => {
    renderScreen();
    const targets = await screen.findByRole('table', { name: 'Targets' });
    expect(within(targets).getByText('ops hook')).toBeTruthy();
    expect(within(targets).getByText('https://hooks.example.com/dogu')).toBeTruthy();
    const rules = screen.getByRole('table', { name: 'Rules' });
    await within(rules).findByText('Cron job: nightly export');
    expect(within(rules).getByText('Failure, Recovery')).toBeTruthy();
    const log = await screen.findByRole('table', { name: 'Delivery log' });
    await within(log).findByText('Failed');
    expect(log.textContent).toContain('HTTP 500 The receiver answered HTTP 500.');
  });

  it('says which events a new rule starts with, beside the boxes it ticked', async () => {
    renderScreen();
    const events = await screen.findByRole('group', { name: 'Events' });
    const ticked = within(events)
      .getAllByRole('checkbox')
      .filter((box) => (box as HTMLInputElement).checked)
      .map((box) => box.parentElement!.textContent!.trim());
    expect(ticked).toEqual(['Failure', 'Recovery']);
    const hint = document.getElementById(events.getAttribute('aria-describedby')!.split(' ')[0]!);
    expect(hint?.textContent).toContain('Failure and Recovery are ticked to start with');
  });

  it('sends a test and says it was delivered', async () => {
    renderScreen();
    fireEvent.click(await screen.findByRole('button', { name: 'Send test' }));
    await screen.findByText('Test notification to "ops hook" delivered.');
    expect(posted.map((p) => p.path)).toEqual(['/api/v1/projects/demo/notifications/targets/ntt_1/test']);
  });

  it('adds a webhook target with a generated secret, and shows a refused URL at its field', async () => {
    renderScreen();
    const form = await screen.findByRole('form', { name: 'New target' });
    fireEvent.change(within(form).getByLabelText('Name', { exact: false }), { target: { value: 'local' } });
    fireEvent.change(within(form).getByLabelText('URL', { exact: false }), {
      target: { value: 'http://127.0.0.1:9/hook' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Generate' }));
    const secret = within(form).getByLabelText('Signing secret', { exact: false }) as HTMLInputElement;
    expect(secret.value).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    fireEvent.click(within(form).getByRole('button', { name: 'Add target' }));
    await within(form).findByText('The target 127.0.0.1 is on a loopback or private network.');
    expect(posted[0]).toEqual({
      path: '/api/v1/projects/demo/notifications/targets',
      body: { kind: 'webhook', name: 'local', url: 'http://127.0.0.1:9/hook', signingSecret: secret.value },
    });

    fireEvent.change(within(form).getByLabelText('URL', { exact: false }), {
      target: { value: 'https://hooks.example.com/new' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Add target' }));
    await screen.findByText('Added "local".');
    await waitFor(() => expect(posted).toHaveLength(2));
  });

  it('speaks Japanese', async () => {
    render(
      <I18nProvider language="ja">
        <ToastProvider>
          <WorkspaceProvider value={demoWorkspace}>
            <NotificationsScreen />
          </WorkspaceProvider>
        </ToastProvider>
      </I18nProvider>,
    );
    expect(await screen.findByRole('heading', { name: '通知' })).toBeTruthy();
    expect(await screen.findByRole('table', { name: '配信ログ' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'テスト送信' })).toBeTruthy();
  });

  it('has every key it uses in English and Japanese, and the same keys in both', () => {
    // jsdom's import.meta.url is not a file URL: the test runs from the repository root.
    const dir = join(process.cwd(), 'web/src/screens/notifications');
    const source = readdirSync(dir)
      .filter((name) => name.endsWith('.tsx') && !name.includes('.test.'))
      .map((name) => readFileSync(`${dir}/${name}`, 'utf8'))
      .join('\n');
    const used = [...source.matchAll(/\bt\(\s*'([a-zA-Z][\w.]+)'/g)].map((m) => m[1]!);
    expect(used.length).toBeGreaterThan(40);
    expect(used.filter((key) => !(key in notificationsEn) || !(key in notificationsJa))).toEqual([]);
    expect(Object.keys(notificationsJa).sort()).toEqual(Object.keys(notificationsEn).sort());
  });
});
