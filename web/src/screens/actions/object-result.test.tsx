// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Execution, StatementResult } from '../../api/types.ts';
import { WorkspaceProvider } from '../../app/workspace.tsx';
import { I18nProvider } from '../../i18n/index.tsx';
import { ResultView } from './ResultView.tsx';

afterEach(cleanup);

const workspace = {
  projectId: 'demo',
  environmentId: 'development',
  projects: [],
  environments: [],
  project: undefined,
  environment: undefined,
  href: (path: string) => `/p/demo/e/development${path}`,
};

const executionOf = (result: StatementResult): Execution => ({
  id: 'exe_1',
  status: 'succeeded',
  projectId: 'demo',
  environmentId: 'development',
  actionId: 'files',
  actionVersion: 1,
  executedBy: { kind: 'user', id: 'usr_1', email: 'ops@example.com' },
  via: 'console',
  startedAt: '2026-11-26T00:00:00.000Z',
  finishedAt: '2026-11-26T00:00:01.000Z',
  durationMs: 10,
  arguments: {},
  results: [result],
});

const show = (result: StatementResult) =>
  render(
    <I18nProvider language="en">
      <WorkspaceProvider value={workspace}>
        <ResultView execution={executionOf(result)} actionId="files" />
      </WorkspaceProvider>
    </I18nProvider>,
  );

describe('object-storage results', () => {
  it('lists objects with human sizes and dates', () => {
    show({
      title: 'List',
      status: 'succeeded',
      columns: [
        { name: 'objectKey', type: 'string' },
        { name: 'lastModified', type: 'number' },
        { name: 'size', type: 'number' },
      ],
      rows: [{ objectKey: 'reports/a.csv', lastModified: 1_764_115_200, size: 2_621_440 }],
      rowCount: 1,
      messages: [],
    });
    expect(screen.getByText('2.5 MB')).toBeTruthy();
    expect(screen.getByText('reports/a.csv')).toBeTruthy();
    const time = document.querySelector('time');
    expect(time?.getAttribute('datetime')).toBe('2025-11-26T00:00:00.000Z');
  });

  it('offers a downloaded object as a file and shows a text object', () => {
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:x';
    });
    URL.revokeObjectURL = vi.fn();
    show({
      title: 'Download',
      status: 'succeeded',
      columns: [
        { name: 'objectKey', type: 'string' },
        { name: 'size', type: 'number' },
      ],
      rows: [{ objectKey: 'in/data.bin', size: 3 }],
      rowCount: 1,
      messages: [],
      file: { name: 'data.bin', contentType: 'application/octet-stream', base64: 'AAEC' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Download data.bin' }));
    expect(created[0]?.size).toBe(3);
    cleanup();
    show({
      title: 'Download',
      status: 'succeeded',
      columns: [{ name: 'objectKey', type: 'string' }],
      rows: [{ objectKey: 'in/a.txt' }],
      rowCount: 1,
      messages: [],
      value: 'paid in full',
    });
    expect(screen.getByText('paid in full')).toBeTruthy();
  });

  it('copies a signed URL and says until when it works', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    show({
      title: 'Share',
      status: 'succeeded',
      columns: [
        { name: 'signedUrl', type: 'string' },
        { name: 'method', type: 'string' },
        { name: 'expiresAt', type: 'number' },
      ],
      rows: [
        { signedUrl: 'https://files.example/a?X-Amz-Signature=1', method: 'GET', expiresAt: 1_764_118_800 },
      ],
      rowCount: 1,
      messages: [],
    });
    expect(screen.getByText(/^Works until/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Copy URL' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('https://files.example/a?X-Amz-Signature=1'));
  });
});
