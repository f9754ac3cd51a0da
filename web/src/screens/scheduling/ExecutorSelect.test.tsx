// @vitest-environment jsdom
/**
 * The cron job's executor: a select of "me" and the project's service accounts, listed by a real
 * HTTP server playing `GET …/service-accounts`; the save body names the executor only when it changed.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Principal } from '../../api/types.ts';
import { pathOf, serveApi } from '../../test-support/api-server.ts';
import { InConsole } from '../../test-support/console.tsx';
import type { Executor } from './api.ts';
import { ExecutorSelect, executorOfChoice, initialExecutorChoice } from './ExecutorSelect.tsx';

const me: Principal = { kind: 'user', id: 'usr_1', email: 'ops@example.com', name: 'Ops' };

serveApi((request, response) => {
  if (pathOf(request) !== '/api/v1/projects/demo/service-accounts') {
    response.writeHead(404, { 'content-type': 'application/json' });
    return response.end('{"title":"Not found"}');
  }
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify({
      data: [
        { id: 'sa_report', name: 'report-bot', email: 'report-bot@demo.sa.dogu', createdAt: '' },
        { id: 'sa_old', name: 'old-bot', email: 'old-bot@demo.sa.dogu', disabled: true, createdAt: '' },
      ],
    }),
  );
});
afterEach(cleanup);

function Harness({ stored }: { stored?: Executor }) {
  const [choice, setChoice] = useState(() => initialExecutorChoice(stored, me));
  return (
    <InConsole>
      <ExecutorSelect value={choice} onChange={setChoice} stored={stored} me={me} error={undefined} />
      <output data-testid="body">{JSON.stringify(executorOfChoice(choice, stored, me))}</output>
    </InConsole>
  );
}

const body = () => JSON.parse(screen.getByTestId('body').textContent!);
const options = () =>
  [...(screen.getByLabelText(/Runs as/) as HTMLSelectElement).options].map((o) => [o.text, o.disabled]);

describe('cron job executor select', () => {
  it("lists me and the project's service accounts; a disabled one cannot be chosen", async () => {
    render(<Harness />);
    await screen.findByRole('option', { name: 'report-bot (report-bot@demo.sa.dogu)' });
    expect(options()).toEqual([
      ['Me (ops@example.com)', false],
      ['report-bot (report-bot@demo.sa.dogu)', false],
      ['old-bot (old-bot@demo.sa.dogu) — disabled', true],
    ]);
    expect(body()).toEqual({});
    fireEvent.change(screen.getByLabelText(/Runs as/), { target: { value: 'sa:sa_report' } });
    expect(body()).toEqual({ executor: { kind: 'service_account', id: 'sa_report' } });
  });

  it('editing a job that runs as a service account: choosing me names me explicitly', async () => {
    render(
      <Harness stored={{ kind: 'service_account', id: 'sa_report', email: 'report-bot@demo.sa.dogu' }} />,
    );
    await screen.findByRole('option', { name: 'report-bot (report-bot@demo.sa.dogu)' });
    expect((screen.getByLabelText(/Runs as/) as HTMLSelectElement).value).toBe('sa:sa_report');
    expect(body()).toEqual({});
    fireEvent.change(screen.getByLabelText(/Runs as/), { target: { value: 'me' } });
    expect(body()).toEqual({ executor: { kind: 'user', id: 'usr_1' } });
  });

  it("editing another member's job keeps their executor unless changed; a deleted account still shows", async () => {
    render(<Harness stored={{ kind: 'user', id: 'usr_2', email: 'lead@example.com' }} />);
    await screen.findByRole('option', { name: 'report-bot (report-bot@demo.sa.dogu)' });
    expect(options()[0]).toEqual(['lead@example.com (unchanged)', false]);
    expect(body()).toEqual({});
    cleanup();
    render(<Harness stored={{ kind: 'service_account', id: 'sa_gone', email: 'gone@demo.sa.dogu' }} />);
    await screen.findByRole('option', { name: 'report-bot (report-bot@demo.sa.dogu)' });
    expect((screen.getByLabelText(/Runs as/) as HTMLSelectElement).value).toBe('sa:sa_gone');
    expect(options().at(-1)).toEqual(['gone@demo.sa.dogu', false]);
  });
});
