// @vitest-environment jsdom
/**
 * "Only a JavaScript action" in the action editor, against a real HTTP server playing the API: it
 * cannot be chosen while the project has no JavaScript action (it would lock everyone out), and
 * when it holds one the holder is chosen from the JavaScript actions and sent with the save.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectorKinds } from '../../../../shared/connectors/descriptors.ts';
import { jsonBodyOf, pathOf, serveApi } from '../../test-support/api-server.ts';
import { InConsole } from '../../test-support/console.tsx';
import { ActionEditorScreen } from './ActionEditorScreen.tsx';

const report = {
  id: 'report',
  name: 'Report',
  kind: 'sql',
  dataSourceId: 'shop',
  parameters: [],
  statements: [{ title: 'Result', sql: 'SELECT 1' }],
  permission: { mode: 'everyone' },
  version: 3,
};
const script = { id: 'a-script', name: 'A script', kind: 'javascript', dataSourceId: 'shop', version: 1 };

let projectActions: Record<string, unknown>[] = [];
let saved: Record<string, unknown>[] = [];

serveApi(async (request, response) => {
  const path = pathOf(request);
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (path === '/api/v1/connector-kinds') return reply(200, { data: connectorKinds() });
  if (path === '/api/v1/projects/demo/data-sources') {
    return reply(200, { data: [{ id: 'shop', name: 'Shop', kind: 'postgresql', environments: {} }] });
  }
  if (path === '/api/v1/projects/demo/actions') return reply(200, { data: projectActions });
  if (path === '/api/v1/projects/demo/actions/report') {
    if (request.method === 'PUT') {
      saved.push(await jsonBodyOf(request));
      return reply(200, { ...report, version: 4 });
    }
    return reply(200, report);
  }
  return reply(404, { title: 'Not found' });
});

beforeEach(() => {
  saved = [];
});
afterEach(cleanup);

function renderEditor() {
  render(
    <InConsole>
      <ActionEditorScreen params={{ actionId: 'report' }} />
    </InConsole>,
  );
}

describe('permission "only a JavaScript action" in the editor', () => {
  it('cannot be chosen while the project has no JavaScript action, and says why', async () => {
    projectActions = [report];
    renderEditor();
    await screen.findByText(
      '"Only a JavaScript action" needs a JavaScript action in this project; there is none yet.',
    );
    const option = screen.getByRole('option', { name: 'Only a JavaScript action' }) as HTMLOptionElement;
    expect(option.disabled).toBe(true);
  });

  it('chooses the holder among the JavaScript actions and sends it', async () => {
    projectActions = [report, script];
    renderEditor();
    await screen.findByDisplayValue('Report');
    const mode = screen.getByLabelText(/^Permission/) as HTMLSelectElement;
    await waitFor(() =>
      expect(
        (screen.getByRole('option', { name: 'Only a JavaScript action' }) as HTMLOptionElement).disabled,
      ).toBe(false),
    );
    fireEvent.change(mode, { target: { value: 'javascript_action' } });
    const holder = screen.getByLabelText(/^JavaScript action allowed to run it/) as HTMLSelectElement;
    expect([...holder.options].map((o) => o.value)).toEqual(['', 'a-script']);
    fireEvent.change(holder, { target: { value: 'a-script' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save as a new version' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.permission).toEqual({ mode: 'javascript_action', javascriptActionId: 'a-script' });
  });
});
