// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Execution } from '../../api/types.ts';
import { WorkspaceProvider } from '../../app/workspace.tsx';
import { I18nProvider } from '../../i18n/index.tsx';
import { ResultView } from './ResultView.tsx';

afterEach(cleanup);

const failed: Execution = {
  id: 'exe_1',
  status: 'failed',
  projectId: 'demo',
  environmentId: 'development',
  actionId: 'find-orders',
  actionVersion: 1,
  executedBy: { kind: 'user', id: 'usr_1', email: 'ops@example.com' },
  via: 'console',
  startedAt: '2026-11-26T00:00:00.000Z',
  finishedAt: null,
  durationMs: null,
  arguments: {},
  error: { code: 'data_source_error', message: 'syntax error at or near "SELEC"' },
  results: [
    {
      title: 'Statement 1',
      status: 'failed',
      columns: [],
      rows: [],
      rowCount: 0,
      messages: [],
      error: { code: 'data_source_error', message: 'syntax error at or near "SELEC"' },
    },
  ],
};

const workspace = {
  projectId: 'demo',
  environmentId: 'development',
  projects: [],
  environments: [],
  project: undefined,
  environment: undefined,
  href: (path: string) => `/p/demo/e/development${path}`,
};

describe('result view', () => {
  it('says "1 row" in the singular and names column types in the language shown', () => {
    const oneRow: Execution = {
      ...failed,
      status: 'succeeded',
      results: [
        {
          title: 'Orders',
          status: 'succeeded',
          columns: [{ name: 'id', type: 'number' }],
          rows: [{ id: 7 }],
          rowCount: 1,
          messages: [],
        },
      ],
    };
    const shown = (language: 'en' | 'ja') =>
      render(
        <I18nProvider language={language}>
          <WorkspaceProvider value={workspace}>
            <ResultView execution={oneRow} actionId="find-orders" />
          </WorkspaceProvider>
        </I18nProvider>,
      );
    const { unmount } = shown('en');
    expect(screen.getByText('1 row')).toBeTruthy();
    expect(screen.queryByText('1 rows')).toBeNull();
    unmount();
    shown('ja');
    expect(screen.getByText('1 行')).toBeTruthy();
    expect(document.querySelector('.col-type')?.textContent).toBe('数値');
  });

  it("shows a failed statement's message (the API's error object), not a blank screen", () => {
    render(
      <I18nProvider language="en">
        <WorkspaceProvider value={workspace}>
          <ResultView execution={failed} actionId="find-orders" />
        </WorkspaceProvider>
      </I18nProvider>,
    );
    expect(screen.getByText('This statement failed: syntax error at or near "SELEC"')).toBeTruthy();
  });

  it("shows a script's console output and its value", () => {
    const scripted: Execution = {
      ...failed,
      status: 'succeeded',
      error: undefined,
      results: [
        {
          title: 'Chain',
          status: 'succeeded',
          columns: [],
          rows: [],
          rowCount: 0,
          messages: [],
          value: [1, { a: 2 }],
          logs: [
            { level: 'log', message: 'looking up 7' },
            { level: 'warn', message: 'no refund' },
          ],
        },
      ],
    };
    render(
      <I18nProvider language="ja">
        <WorkspaceProvider value={workspace}>
          <ResultView execution={scripted} actionId="chain" />
        </WorkspaceProvider>
      </I18nProvider>,
    );
    const logs = screen.getByRole('region', { name: 'コンソール出力' });
    expect(logs.querySelector('pre')?.textContent).toBe('looking up 7[warn] no refund');
    expect(screen.getByText(/"a": 2/)).toBeTruthy();
  });
});
