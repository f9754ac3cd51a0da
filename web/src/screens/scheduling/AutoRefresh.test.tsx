// @vitest-environment jsdom
/**
 * Screens with running work load again by themselves while something runs, and stop asking once
 * nothing does: the batch list and a cron job's run history, against a real HTTP server whose
 * answers move on with each request.
 */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { pathOf, serveApi } from '../../test-support/api-server.ts';
import { InConsole } from '../../test-support/console.tsx';
import { BatchListScreen } from './BatchListScreen.tsx';
import { CronRunHistory } from './CronRunHistory.tsx';

afterEach(cleanup);

const asked = { batches: 0, runs: 0 };

const batchAt = (step: number) => ({
  id: 'bat_1',
  actionId: 'ship-order',
  status: step >= 2 ? 'finished' : 'running',
  attempt: 1,
  rowCount: 4,
  createdAt: '2026-11-22T00:00:00Z',
  createdBy: { id: 'usr_1', email: 'ops@example.com' },
  progress: { total: 4, waiting: 0, running: 0, success: Math.min(4, 2 * step), failure: 0 },
});

const runAt = (step: number) => ({
  jobId: 'cron_1',
  scheduledAt: '2026-11-22T00:00:00.000Z',
  attempt: 1,
  status: step >= 1 ? 'completed' : 'running',
  ...(step >= 1 ? { executionId: 'exe_9' } : {}),
});

serveApi((request, response) => {
  const path = pathOf(request);
  const reply = (body: unknown) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (path.endsWith('/batches')) return reply({ data: [batchAt(asked.batches++)] });
  if (path.endsWith('/cron-jobs/cron_1/runs')) return reply({ data: [runAt(asked.runs++)] });
  return reply({ data: [] });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('screens with running work refresh by themselves', () => {
  it('the batch list follows a running batch to the end, then stops asking', async () => {
    render(
      <InConsole>
        <BatchListScreen />
      </InConsole>,
    );
    await screen.findByText('0 / 4');
    await screen.findByText('2 / 4', undefined, { timeout: 4000 });
    await screen.findByText('Finished', undefined, { timeout: 4000 });
    expect(screen.getByText('4 / 4')).toBeTruthy();
    expect(asked.batches).toBe(3);
    await pause(2500);
    expect(asked.batches).toBe(3);
  }, 15_000);

  it("a cron job's run history follows a running run until it completes", async () => {
    render(
      <InConsole>
        <CronRunHistory jobId="cron_1" timeZone="Asia/Tokyo" />
      </InConsole>,
    );
    await screen.findByText('Running');
    await waitFor(() => expect(screen.getByRole('link', { name: 'exe_9' })).toBeTruthy(), { timeout: 4000 });
    expect(asked.runs).toBe(2);
    await pause(2500);
    expect(asked.runs).toBe(2);
  }, 15_000);
});
