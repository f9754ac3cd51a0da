// @vitest-environment jsdom
/**
 * Batch progress: the screen polls a real HTTP server every interval while the batch runs, moves
 * the progress bar and row statuses with each answer, and stops asking once it has finished.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { I18nProvider } from '../../i18n/index.tsx';
import type { BatchDetail, BatchRow } from './api.ts';
import { BatchProgressBar, BatchRowsTable, useBatchPolling } from './BatchProgressView.tsx';

afterEach(cleanup);

/** A batch of 4 rows that advances one row per request: row 2 fails, the rest succeed. */
let requests = 0;
function stateAt(step: number): BatchDetail {
  const rows: BatchRow[] = [0, 1, 2, 3].map((index) => {
    const done = index < step;
    const running = index === step;
    const failed = done && index === 2;
    return {
      index,
      arguments: { order_id: 100 + index },
      attempt: 1,
      status: failed ? 'failure' : done ? 'success' : running ? 'running' : 'waiting',
      ...(done ? { executionId: `exe_${index}` } : {}),
      ...(failed ? { error: { code: 'data_source_error', message: 'Order 102 is locked.' } } : {}),
    };
  });
  const count = (status: BatchRow['status']) => rows.filter((row) => row.status === status).length;
  return {
    batch: {
      id: 'bat_1',
      actionId: 'ship-order',
      status: step >= 4 ? 'finished' : 'running',
      attempt: 1,
      rowCount: 4,
      createdAt: '2026-11-22T00:00:00Z',
      createdBy: { id: 'usr_1', email: 'ops@example.com' },
    },
    progress: {
      total: 4,
      waiting: count('waiting'),
      running: count('running'),
      success: count('success'),
      failure: count('failure'),
    },
    rows,
  };
}

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((_request, response) => {
    const state = stateAt(requests++);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(state));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/batches/bat_1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const load = async () => (await fetch(url)).json() as Promise<BatchDetail>;

function Monitor() {
  const { detail } = useBatchPolling(load, 40);
  if (!detail) return null;
  return (
    <>
      <span data-testid="status">{detail.batch.status}</span>
      <BatchProgressBar progress={detail.progress} />
      <BatchRowsTable detail={detail} executionHref={(id) => `/executions/${id}`} />
    </>
  );
}

describe('batch progress', () => {
  it('polls while running, moves the bar and the row statuses, and stops when finished', async () => {
    requests = 0;
    render(
      <I18nProvider language="en">
        <Monitor />
      </I18nProvider>,
    );
    const bar = await screen.findByRole('progressbar', { name: 'Progress' });
    expect(bar.getAttribute('aria-valuemax')).toBe('4');
    // Watch at least one intermediate state go by.
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('2'));
    expect(bar.getAttribute('aria-valuetext')).toBe('2 of 4 rows done (50%)');
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('finished'), { timeout: 3000 });
    expect(bar.getAttribute('aria-valuenow')).toBe('4');
    expect(screen.getByTestId('batch-counts').textContent).toBe(
      '100% · 3 succeeded · 1 failed · 0 running · 0 waiting · 4 rows',
    );
    const statuses = [...document.querySelectorAll('tbody tr [data-status]')].map((cell) =>
      cell.getAttribute('data-status'),
    );
    expect(statuses).toEqual(['success', 'success', 'failure', 'success']);
    expect(screen.getByText('data_source_error: Order 102 is locked.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'exe_3' }).getAttribute('href')).toBe('/executions/exe_3');
    // Finished at the fifth answer; no request after that.
    expect(requests).toBe(5);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(requests).toBe(5);
  });

  it('one status column; rows numbered as in the CSV file; 10,000 rows keep only those in view in the page', () => {
    const rows: BatchRow[] = Array.from({ length: 10_000 }, (_, index) => ({
      index,
      arguments: { status: index % 2 ? 'paid' : 'shipped', limit: index },
      attempt: 1,
      status: index === 0 ? 'failure' : 'success',
      executionId: `exe_${index}`,
      ...(index === 0 ? { error: { code: 'argument_invalid', message: 'limit must be at least 1.' } } : {}),
    }));
    const detail: BatchDetail = {
      ...stateAt(4),
      batch: { ...stateAt(4).batch, rowCount: rows.length, source: 'csv' },
      rows,
    };
    render(
      <I18nProvider language="en">
        <BatchRowsTable detail={detail} executionHref={(id) => `/executions/${id}`} />
      </I18nProvider>,
    );
    const table = screen.getByRole('table', { name: 'Rows of the batch' });
    expect(table.getAttribute('aria-rowcount')).toBe('10001');
    expect(table.querySelectorAll('tbody tr').length).toBeLessThan(60);
    const headers = [...table.querySelectorAll('th')].map((th) => th.textContent);
    // The row's status once; the argument named "status" is marked as an argument.
    expect(headers).toEqual(['Row in file', 'Status', 'status argument', 'limit argument', 'Execution']);
    const firstRow = table.querySelector('tbody tr')!;
    const cells = [...firstRow.querySelectorAll('td')].map((td) => td.textContent);
    expect(cells).toEqual([
      '2',
      'Failed argument_invalid: limit must be at least 1.',
      '"shipped"',
      '0',
      'exe_0',
    ]);
  });

  it('the bar shows successes and failures as shares of the total', () => {
    render(
      <I18nProvider language="ja">
        <BatchProgressBar progress={{ total: 8, waiting: 3, running: 1, success: 3, failure: 1 }} />
      </I18nProvider>,
    );
    const bar = screen.getByRole('progressbar', { name: '進捗' });
    expect(bar.getAttribute('aria-valuenow')).toBe('4');
    expect((bar.querySelector('.progress-success') as HTMLElement).style.width).toBe('37.5%');
    expect((bar.querySelector('.progress-failure') as HTMLElement).style.width).toBe('12.5%');
    expect(screen.getByTestId('batch-counts').textContent).toBe(
      '50% · 成功 3 · 失敗 1 · 実行中 1 · 待機中 3 · 全 8 行',
    );
  });
});
