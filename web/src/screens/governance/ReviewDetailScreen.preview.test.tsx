// @vitest-environment jsdom
/**
 * A review request's preview on its screen (decision 0185), against a real HTTP server that plays
 * the API: the approver sees the request-time counts and rows; an approval the server stops because
 * the numbers changed shows the warning with the new preview, and "approve anyway" sends
 * `acceptPreviewChange: true`.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonBodyOf, pathOf, serveApi } from '../../test-support/api-server.ts';
import { InConsole } from '../../test-support/console.tsx';
import { ReviewDetailScreen } from './ReviewDetailScreen.tsx';

const rows = (balances: number[]) => ({
  columns: [{ name: 'balance', type: 'number' }],
  rows: balances.map((balance) => ({ balance })),
});
const previewOf = (count: number) => ({
  takenAt: '2026-11-28T06:00:00.000Z',
  executionId: 'exe_p',
  statements: [
    { title: 'Top up', status: 'succeeded', rowsAffected: count, before: rows([10]), after: rows([110]) },
  ],
});
const review = {
  id: 'rev_1',
  environmentId: 'development',
  actionId: 'top-up',
  actionVersion: 1,
  arguments: { region: 'jp' },
  requestedBy: { kind: 'user', id: 'usr_req', email: 'req@example.com', name: 'Req' },
  requestedAt: '2026-11-28T06:00:00.000Z',
  expiresAt: '2026-11-29T06:00:00.000Z',
  status: 'pending',
  preview: previewOf(3),
};
let approvals: Record<string, unknown>[] = [];

serveApi(async (request, response) => {
  const path = pathOf(request);
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (request.method === 'GET' && path === '/api/v1/projects/demo/review-requests/rev_1')
    return reply(200, review);
  if (request.method === 'POST' && path === '/api/v1/projects/demo/review-requests/rev_1/approve') {
    const body = await jsonBodyOf(request);
    approvals.push(body);
    if (body.acceptPreviewChange !== true) {
      return reply(409, {
        title: 'Conflict',
        status: 409,
        code: 'state_conflict',
        reason: 'preview_changed',
        detail:
          "The preview taken now differs from the one the request was made with: 'Top up' 3 rows → 4 rows.",
        previewAtRequest: previewOf(3),
        previewAtApproval: previewOf(4),
      });
    }
    return reply(200, { reviewRequest: { ...review, status: 'executed' }, execution: null });
  }
  return reply(404, { title: 'Not found' });
});
beforeEach(() => {
  approvals = [];
  window.history.replaceState(null, '', '/p/demo/e/development/reviews/rev_1');
});
afterEach(cleanup);

describe('a review request with a preview', () => {
  it('shows the request-time preview; a changed preview stops approval until approved anyway', async () => {
    const session = {
      user: { kind: 'user' as const, id: 'usr_ok', email: 'ok@example.com', name: 'Ok' },
      signOut: async () => {},
    };
    render(
      <InConsole session={session}>
        <ReviewDetailScreen params={{ reviewId: 'rev_1' }} />
      </InConsole>,
    );
    const atRequest = await screen.findByRole('region', { name: 'Preview at request time' });
    expect(within(atRequest).getByTestId('preview-count').textContent).toBe('3 rows would be affected');
    expect(within(atRequest).getByRole('table', { name: 'After' }).textContent).toContain('110');

    fireEvent.click(screen.getByRole('button', { name: 'Approve and run' }));
    const warning = await screen.findByRole('alert');
    expect(warning.textContent).toContain('The preview changed since the request');
    expect(warning.textContent).toContain("'Top up' 3 rows → 4 rows");
    const atApproval = screen.getByRole('region', { name: 'Preview at approval' });
    expect(within(atApproval).getByTestId('preview-count').textContent).toBe('4 rows would be affected');

    fireEvent.click(screen.getByRole('button', { name: 'Approve and run anyway' }));
    await waitFor(() => expect(approvals).toHaveLength(2));
    expect(approvals).toEqual([{}, { acceptPreviewChange: true }]);
  });
});
