// @vitest-environment jsdom
/**
 * The data-source form is rendered from the server's own connector descriptors (served by a real
 * HTTP server playing the API): an HTTP source's common headers and authentication action can be
 * edited, the PUT carries them, and Test connection shows the time taken or the reason.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectorKinds } from '../../../../shared/connectors/descriptors.ts';
import { dataSourceInputSchema } from '../../../../shared/connectors/schemas.ts';
import { DoguError } from '../../../../shared/domain/errors.ts';
import { fieldSentence, readableIssues } from '../../../../shared/domain/readable-issues.ts';
import { problemResponse } from '../../../../shared/http/problem.ts';
import { jsonBodyOf, pathOf, serveApi } from '../../test-support/api-server.ts';
import { InConsole } from '../../test-support/console.tsx';
import { DataSourcesScreen } from './DataSourcesScreen.tsx';

const apiSource = {
  id: 'api',
  name: 'Shop API',
  kind: 'http',
  environments: {
    development: { url: 'https://api.example.test', headers: [{ key: 'x-team', value: 'ops' }] },
  },
};
const pgSource = {
  id: 'pg',
  name: 'Shop DB',
  kind: 'postgresql',
  environments: { development: { host: 'db', port: 5432, database: 'shop', user: 'app', hasPassword: true } },
};

let puts: { path: string; body: Record<string, unknown> }[] = [];
let tests: string[] = [];
let testBodies: Record<string, unknown>[] = [];
let testAnswer: unknown = { ok: true, durationMs: 12 };

serveApi(async (request, response) => {
  const path = pathOf(request);
  response.statusCode = 200;
  response.setHeader('content-type', 'application/json');
  if (path === '/api/v1/connector-kinds') return response.end(JSON.stringify({ data: connectorKinds() }));
  if (request.method === 'PUT') {
    const body = await jsonBodyOf(request);
    puts.push({ path, body });
    // The server's own check of the body and its own Problem Details.
    const parsed = dataSourceInputSchema.safeParse(body);
    if (!parsed.success) {
      const errors = readableIssues(parsed.error.issues, body);
      const problem = problemResponse(
        new DoguError('invalid_definition', fieldSentence(errors[0]!), { errors }),
        'r',
      );
      response.statusCode = problem.statusCode ?? 422;
      return response.end(String(problem.body));
    }
    return response.end('{}');
  }
  if (path.endsWith('/test-connection')) {
    tests.push(path);
    testBodies.push(await jsonBodyOf(request));
    return response.end(JSON.stringify(testAnswer));
  }
  response.end(JSON.stringify({ data: [apiSource, pgSource] }));
});
beforeEach(() => {
  puts = [];
  tests = [];
  testBodies = [];
  testAnswer = { ok: true, durationMs: 12 };
});
afterEach(cleanup);

const renderScreen = () =>
  render(
    <InConsole>
      <DataSourcesScreen />
    </InConsole>,
  );

async function edit(name: string) {
  renderScreen();
  const row = (await screen.findByText(name)).closest('tr') as HTMLElement;
  fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
  const form = screen.getByRole('form', { name: 'Data source' });
  // The connection fields come from the kinds' descriptors, which may arrive after the list.
  await waitFor(() => expect(form.querySelector('fieldset.environment-connection')).not.toBeNull());
  return form;
}

describe('data-source form from connector descriptors', () => {
  it('edits an HTTP source’s common headers and authentication action, and saves them', async () => {
    const form = await edit('Shop API');
    expect(within(form).getByLabelText(/^Base URL/)).toHaveProperty('value', 'https://api.example.test');
    expect(within(form).getByLabelText('Common headers 1: Value')).toHaveProperty('value', 'ops');
    fireEvent.click(within(form).getByRole('button', { name: 'Add to Common headers' }));
    fireEvent.change(within(form).getByLabelText('Common headers 2: Key'), { target: { value: 'x-region' } });
    fireEvent.change(within(form).getByLabelText('Common headers 2: Value'), {
      target: { value: '{{ vars.region }}' },
    });
    fireEvent.change(within(form).getByLabelText('Action id'), { target: { value: 'api-login' } });
    fireEvent.change(within(form).getByLabelText('Token path in its result'), { target: { value: 'token' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved "Shop API".');
    expect(puts).toEqual([
      {
        path: '/api/v1/projects/demo/data-sources/api',
        body: {
          id: 'api',
          name: 'Shop API',
          kind: 'http',
          environments: {
            development: {
              url: 'https://api.example.test',
              headers: [
                { key: 'x-team', value: 'ops' },
                { key: 'x-region', value: '{{ vars.region }}' },
              ],
            },
          },
          authAction: { actionId: 'api-login', tokenPath: 'token' },
        },
      },
    ]);
  });

  it('shows a stored password as stored, keeps it when left empty, and offers no auth action for SQL', async () => {
    const form = await edit('Shop DB');
    expect(within(form).getByLabelText(/^Password/)).toHaveProperty('value', '');
    expect(form.textContent).toContain('A value is stored.');
    expect(within(form).queryByLabelText('Action id')).toBeNull();
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved "Shop DB".');
    expect(puts[0]?.body.environments).toEqual({
      development: { host: 'db', port: 5432, database: 'shop', user: 'app' },
    });
  });

  it('tests the saved connection and shows the time taken, or why it failed', async () => {
    const form = await edit('Shop DB');
    fireEvent.click(within(form).getByRole('button', { name: 'Test connection' }));
    await within(form).findByText('Connected in 12 ms.');
    expect(tests).toEqual(['/api/v1/projects/demo/data-sources/pg/environments/development/test-connection']);
    testAnswer = {
      ok: false,
      durationMs: 30,
      error: { code: 'data_source_error', message: 'password refused' },
    };
    fireEvent.click(within(form).getByRole('button', { name: 'Test connection' }));
    await within(form).findByText('Failed after 30 ms: password refused');
  });
});

describe('a new data source, first try', () => {
  const environments = [
    { projectId: 'demo', id: 'development', name: 'Development' },
    { projectId: 'demo', id: 'production', name: 'Production' },
  ];
  const startNew = async () => {
    render(
      <InConsole environments={environments}>
        <DataSourcesScreen />
      </InConsole>,
    );
    const add = (await screen.findByRole('button', { name: 'Add data source' })) as HTMLButtonElement;
    await waitFor(() => expect(add.disabled).toBe(false));
    fireEvent.click(add);
    const form = screen.getByRole('form', { name: 'Data source' });
    await waitFor(() => expect(form.querySelector('fieldset.environment-connection')).not.toBeNull());
    fireEvent.change(within(form).getByLabelText(/^Kind/), { target: { value: 'postgresql' } });
    return form;
  };
  const section = (form: HTMLElement, name: string) => within(form).getByRole('group', { name });
  const fill = (box: HTMLElement, values: Record<string, string>) => {
    for (const [label, value] of Object.entries(values)) {
      fireEvent.change(within(box).getByLabelText(new RegExp(`^${label}`)), { target: { value } });
    }
  };

  it('says an empty id beside the field instead of calling a route that does not exist', async () => {
    const form = await startNew();
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    const id = within(form).getByLabelText(/^Id/);
    expect(id.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(id.getAttribute('aria-describedby')!)?.textContent).toBe('Enter an id.');
    expect(puts).toEqual([]);
    expect(form.textContent).not.toContain('Route');
  });

  it('shows every environment in one form, fills an empty port with its default, and tests before saving', async () => {
    const form = await startNew();
    fill(form, { Id: 'shop', Name: 'Shop DB' });
    const development = section(form, 'Connection in Development');
    const production = section(form, 'Connection in Production');
    expect(within(development).getByLabelText(/^Port/)).toHaveProperty('placeholder', '5432');
    expect(development.textContent).toContain('Empty: 5432.');
    fill(development, { Host: 'db.dev', Database: 'shop', User: 'app', Password: 'dev-secret' });
    fill(production, { Host: 'db.prod', Database: 'shop', User: 'app' });

    fireEvent.click(within(production).getByRole('button', { name: 'Test connection' }));
    await within(production).findByText('Connected in 12 ms.');
    expect(tests).toEqual([
      '/api/v1/projects/demo/data-sources/shop/environments/production/test-connection',
    ]);
    expect(testBodies[0]).toEqual({
      kind: 'postgresql',
      connection: { host: 'db.prod', port: 5432, database: 'shop', user: 'app' },
    });

    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved "Shop DB".');
    expect(puts[0]!.body.environments).toEqual({
      development: { host: 'db.dev', port: 5432, database: 'shop', user: 'app', password: 'dev-secret' },
      production: { host: 'db.prod', port: 5432, database: 'shop', user: 'app' },
    });
  });

  it("puts the server's refusal beside the field, in words, without a banner repeating it", async () => {
    const form = await startNew();
    fill(form, { Id: 'shop', Name: 'Shop DB' });
    const development = section(form, 'Connection in Development');
    fill(development, { Host: 'db.dev', Database: 'shop', User: 'app', Port: '70000' });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    const port = within(development).getByLabelText(/^Port/);
    await waitFor(() => expect(port.getAttribute('aria-invalid')).toBe('true'));
    const described = port.getAttribute('aria-describedby')!.split(' ');
    expect(document.getElementById(described.at(-1)!)?.textContent).toBe('must be at most 65535');
    expect(screen.queryByText(/#\/environments/)).toBeNull();
    expect(document.querySelector('.error-banner')).toBeNull();
  });
});
