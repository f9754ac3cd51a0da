/**
 * The Google Sheets kind end to end through the local API, against a local stand-in for Google's
 * OAuth and Sheets endpoints that checks the exact requests: Connect (authorization code + PKCE,
 * state bound to the caller), the refresh token kept encrypted, every operation, refresh on
 * expiry and after a 401, a revoked grant ("reconnect needed"), and Disconnect (revocation).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan } from '../../../cli/config/apply.ts';
import { exportConfig } from '../../../cli/config/export.ts';
import { parseConfigText } from '../../../cli/config/load.ts';
import { managementApi } from '../../../cli/config/management-api.ts';
import { buildPlan, environmentsNamedIn } from '../../../cli/config/plan.ts';
import { readProjectState } from '../../../cli/config/project-state.ts';
import type { LocalRuntime } from '../../../local/runtime.ts';
import { apiClient } from '../../support/api.ts';
import { loginToken, startTestRuntime, tempDir } from '../../support/runtime.ts';
import { type FakeGoogle, startFakeGoogle } from './fake-google.ts';

let runtime: LocalRuntime;
let google: FakeGoogle;
let dir: Awaited<ReturnType<typeof tempDir>>;
let api: ReturnType<typeof apiClient>;
let token: string;
const base = '/api/v1/projects/demo';
const oauthPath = `${base}/data-sources/orders-sheet/environments/development/oauth`;

beforeAll(async () => {
  dir = await tempDir('google-sheets');
  google = await startFakeGoogle();
  google.spreadsheets.set('book-1', {
    sharedWith: google.account,
    sheets: [
      {
        sheetId: 0,
        title: 'Orders',
        rows: [
          ['id', 'customer', 'amount', 'status'],
          ['1001', 'Aoki', '1200', 'open'],
          ['1002', 'Baba', '300', 'shipped'],
          ['1003', 'Chiba', '4500', 'open'],
        ],
      },
      { sheetId: 77, title: "Staff's list", rows: [['name'], ['Ito']] },
    ],
  });
  google.spreadsheets.set('private-book', { sharedWith: 'someone.else@example.com', sheets: [] });
  runtime = await startTestRuntime(dir.path);
  token = await loginToken(runtime);
  api = apiClient(runtime, token);
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await dir?.remove();
  await google?.close();
});

const dataSource = (connection: Record<string, unknown>) => ({
  id: 'orders-sheet',
  name: 'Orders sheet',
  kind: 'google-sheets',
  environments: { development: { endpointsBaseUrl: google.url, ...connection } },
});

/** Connect as the console does: start, the browser at Google, the redirect back to Dogu. */
async function connect(extraQuery: Record<string, string> = {}) {
  const started = await api.post(`${oauthPath}/start`, {});
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const authorization = new URL(started.body.authorizationUrl);
  for (const [name, value] of Object.entries(extraQuery)) authorization.searchParams.set(name, value);
  const atGoogle = await fetch(authorization, { redirect: 'manual' });
  expect(atGoogle.status).toBe(302);
  const back = await fetch(atGoogle.headers.get('location')!, {
    headers: { authorization: `Bearer ${token}` },
    redirect: 'manual',
  });
  return { authorization, back };
}

const action = (id: string, fields: Record<string, unknown>, parameters: unknown[] = []) =>
  api.put(`${base}/actions/${id}`, {
    id,
    name: id,
    kind: 'sheets',
    dataSourceId: 'orders-sheet',
    spreadsheetId: 'book-1',
    sheet: 'Orders',
    parameters,
    ...fields,
  });

describe('connecting a Google Sheets data source', () => {
  it('says which fields to set when there is no OAuth client', async () => {
    const saved = await api.put(`${base}/data-sources/orders-sheet`, dataSource({}));
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const refused = await api.post(`${oauthPath}/start`, {});
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toContain('Set the OAuth client ID and secret (clientId, clientSecret)');
    expect(refused.body.errors[0].pointer).toBe('#/environments/development/clientId');
    const http = await api.post(`${base}/data-sources/nope/environments/development/oauth/start`, {});
    expect(http.status).toBe(404);
  });

  it('connects with authorization code + PKCE and keeps only who, when and which scopes visible', async () => {
    const saved = await api.put(
      `${base}/data-sources/orders-sheet`,
      dataSource({ clientId: google.client.id, clientSecret: google.client.secret }),
    );
    expect(saved.status).toBe(200);
    expect(saved.body.environments.development).toMatchObject({ hasClientSecret: true });
    expect(saved.body.environments.development.oauth).toBeUndefined();

    const { authorization, back } = await connect();
    expect(authorization.origin + authorization.pathname).toBe(`${google.url}/o/oauth2/v2/auth`);
    const query = Object.fromEntries(authorization.searchParams);
    expect(query).toMatchObject({
      response_type: 'code',
      client_id: google.client.id,
      redirect_uri: `${runtime.url}/api/v1/oauth/callback`,
      scope: 'openid email https://www.googleapis.com/auth/spreadsheets',
      code_challenge_method: 'S256',
      access_type: 'offline',
      prompt: 'consent',
    });
    expect(query.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(
      '/p/demo/e/development/data-sources?dataSource=orders-sheet&oauth=connected',
    );

    // The code was swapped with the verifier whose hash is the challenge, by the data source's client.
    const exchange = new URLSearchParams(google.requestsTo('/token').at(-1)!.body.toString());
    expect(exchange.get('grant_type')).toBe('authorization_code');
    expect(createHash('sha256').update(exchange.get('code_verifier')!).digest('base64url')).toBe(
      query.code_challenge,
    );
    expect(exchange.get('redirect_uri')).toBe(`${runtime.url}/api/v1/oauth/callback`);
    expect(exchange.get('client_secret')).toBe(google.client.secret);

    const shown = await api.get(`${base}/data-sources/orders-sheet`);
    const oauth = shown.body.environments.development.oauth;
    expect(oauth).toMatchObject({
      account: google.account,
      connectedBy: { id: expect.any(String), email: expect.any(String) },
      scopes: ['openid', 'email', 'https://www.googleapis.com/auth/spreadsheets'],
    });
    expect(Date.parse(oauth.connectedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.stringify(shown.body)).not.toMatch(/refresh|1\/\/|Ciphertext/);
    // Nothing on disk holds the refresh token in clear.
    const files = (await readdir(dir.path, { recursive: true, withFileTypes: true })).filter((f) =>
      f.isFile(),
    );
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = await readFile(join(file.parentPath, file.name));
      expect(bytes.includes('1//refresh-'), file.name).toBe(false);
      expect(bytes.includes('ya29.access-'), file.name).toBe(false);
    }

    // A save (the console's form, dogu apply) keeps the connection.
    const resaved = await api.put(
      `${base}/data-sources/orders-sheet`,
      dataSource({ clientId: google.client.id, timeoutMs: 20_000 }),
    );
    expect(resaved.body.environments.development.oauth.account).toBe(google.account);
    expect(resaved.body.environments.development.hasClientSecret).toBe(true);
    const tested = await api.post(
      `${base}/data-sources/orders-sheet/environments/development/test-connection`,
      {},
    );
    expect(tested.body).toMatchObject({ ok: true });
    const audit = await api.get(`${base}/audit-log?event=data_source.oauth_connect`);
    expect(audit.body.data[0]).toMatchObject({
      event: 'data_source.oauth_connect',
      target: { type: 'data_source', id: 'orders-sheet' },
      environmentId: 'development',
      details: { account: google.account },
    });
    expect(JSON.stringify(audit.body)).not.toContain('refresh-');
  });

  it('is exported without the connection, and apply keeps it', async () => {
    const management = managementApi({ baseUrl: runtime.url, token, projectId: 'demo' });
    const text = exportConfig(await readProjectState(management, ['development']), {
      projectId: 'demo',
      source: runtime.url,
      now: new Date(),
    });
    const exported = text.slice(text.indexOf('id: orders-sheet'));
    expect(exported).toContain('kind: google-sheets');
    // (not the word refresh alone: a view's refresh event is exported with the demo views)
    expect(text).not.toMatch(/oauth|refresh_?token|connectedAt|sheets\.owner/i);
    const secretVariable = /clientSecretFromEnv: (\S+)/.exec(exported)![1]!;
    const environment = Object.fromEntries(
      [...text.matchAll(/FromEnv: (\S+)/g)].map((m) => [
        m[1]!,
        m[1] === secretVariable ? google.client.secret : 'x',
      ]),
    );
    const { config } = parseConfigText(
      text.replace('name: Orders sheet', 'name: Orders (sheet)'),
      'export.yaml',
    );
    const plan = buildPlan(
      config,
      await readProjectState(management, environmentsNamedIn(config)),
      environment,
      'demo',
    );
    expect(plan.steps.map((step) => step.resource.id)).toContain('orders-sheet');
    await applyPlan(management, plan);
    const shown = await api.get(`${base}/data-sources/orders-sheet`);
    expect(shown.body.name).toBe('Orders (sheet)');
    expect(shown.body.environments.development.oauth.account).toBe(google.account);
  });

  it('refuses a state that Dogu did not issue, and says so when consent is denied', async () => {
    const forged = await fetch(`${runtime.url}/api/v1/oauth/callback?code=x&state=${'A'.repeat(40)}`, {
      headers: { authorization: `Bearer ${token}` },
      redirect: 'manual',
    });
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as { detail: string }).detail).toContain('was not issued to this session');
    const missing = await fetch(`${runtime.url}/api/v1/oauth/callback?code=x`, {
      headers: { authorization: `Bearer ${token}` },
      redirect: 'manual',
    });
    expect(missing.status).toBe(400);

    // Another manager of the project cannot finish a flow someone else started (CSRF, a leaked link).
    await runtime.services.store.putMembership({
      projectId: 'demo',
      principalId: 'usr_other',
      role: 'admin',
    });
    const other = await runtime.services.tokens.issue(
      { kind: 'user', id: 'usr_other', email: 'other@example.com', name: 'Other' },
      3600,
    );
    const started = await api.post(`${oauthPath}/start`, {});
    const atGoogle = await fetch(started.body.authorizationUrl, { redirect: 'manual' });
    const stolen = await fetch(atGoogle.headers.get('location')!, {
      headers: { authorization: `Bearer ${other.token}` },
      redirect: 'manual',
    });
    expect(stolen.status).toBe(400);
    expect(((await stolen.json()) as { detail: string }).detail).toContain('was not issued to this session');
    // A member who may not manage data sources cannot start one.
    await runtime.services.store.putMembership({
      projectId: 'demo',
      principalId: 'usr_member',
      role: 'member',
    });
    const member = await runtime.services.tokens.issue(
      { kind: 'user', id: 'usr_member', email: 'member@example.com', name: 'Member' },
      3600,
    );
    const memberStart = await apiClient(runtime, member.token).post(`${oauthPath}/start`, {});
    expect(memberStart.status).toBe(403);

    const { back } = await connect({ login_hint: 'deny' });
    expect(back.status).toBe(302);
    const location = new URL(back.headers.get('location')!, runtime.url);
    expect(location.searchParams.get('oauthError')).toBe(
      'Consent was denied at the provider; nothing was connected.',
    );
    // The earlier connection is still there.
    const shown = await api.get(`${base}/data-sources/orders-sheet`);
    expect(shown.body.environments.development.oauth.account).toBe(google.account);
  });
});

describe('Sheets actions', () => {
  it('lists sheets and reads rows: header row → columns, filter from a parameter, offset and limit', async () => {
    // The spreadsheet id from an environment variable.
    await api.put(`${base}/environments/development/variables/ordersBook`, { value: 'book-1' });
    const listed = await action('sheets-list', {
      operation: 'list_sheets',
      sheet: '',
      spreadsheetId: '{{ vars.ordersBook }}',
    });
    expect(listed.status, JSON.stringify(listed.body)).toBe(201);
    const list = await api.execute('sheets-list', {});
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.results[0].rows.map((r: { title: string }) => r.title)).toEqual([
      'Orders',
      "Staff's list",
    ]);

    const saved = await action(
      'open-orders',
      { operation: 'read_rows', filter: [{ key: 'status', value: '{{ status }}' }], limit: 1, offset: 1 },
      [{ name: 'status', kind: 'text', label: 'Status', required: true }],
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const read = await api.execute('open-orders', { status: 'open' });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.results[0].rows).toEqual([
      { _row: 4, id: '1003', customer: 'Chiba', amount: '4500', status: 'open' },
    ]);
    const get = google.requestsTo('/v4/spreadsheets/book-1/values/').at(-1)!;
    expect(get.method).toBe('GET');
    const url = new URL(get.url, 'http://x');
    expect(decodeURIComponent(url.pathname)).toBe("/v4/spreadsheets/book-1/values/'Orders'");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      majorDimension: 'ROWS',
      valueRenderOption: 'FORMATTED_VALUE',
      dateTimeRenderOption: 'FORMATTED_STRING',
    });
    expect(get.headers.authorization).toMatch(/^Bearer ya29\.access-/);

    await action('raw-orders', { operation: 'read_rows', range: 'A1:C', valueRender: 'unformatted' });
    const raw = await api.execute('raw-orders', {});
    expect(raw.body.results[0].rows[0]).toEqual({ _row: 2, id: 1001, customer: 'Aoki', amount: 1200 });
    expect(raw.body.results[0].columns).toContainEqual({ name: 'amount', type: 'number' });
  });

  it('appends rows with valueInputOption, refusing unknown columns before writing', async () => {
    await action(
      'add-order',
      {
        operation: 'append_rows',
        rows: '{"id": {{ id }}, "customer": {{ customer }}, "status": "open"}',
        valueInput: 'RAW',
      },
      [
        { name: 'id', kind: 'text', label: 'Id', required: true },
        { name: 'customer', kind: 'text', label: 'Customer', required: true },
      ],
    );
    const added = await api.execute('add-order', { id: '1004', customer: 'Doi "the" Great' });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.results[0].rows[0]).toMatchObject({ _row: 5, id: '1004' });
    const append = google.requestsTo('/v4/spreadsheets/book-1/values/').at(-1)!;
    const url = new URL(append.url, 'http://x');
    expect(decodeURIComponent(url.pathname)).toBe("/v4/spreadsheets/book-1/values/'Orders'!A1:append");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      valueInputOption: 'RAW',
      insertDataOption: 'INSERT_ROWS',
    });
    expect(JSON.parse(append.body.toString())).toEqual({
      majorDimension: 'ROWS',
      values: [['1004', 'Doi "the" Great', '', 'open']],
    });
    expect(google.spreadsheets.get('book-1')!.sheets[0]!.rows[4]).toEqual([
      '1004',
      'Doi "the" Great',
      '',
      'open',
    ]);

    await action('add-bad', { operation: 'append_rows', rows: '{"colour": "red"}' });
    const before = google.requestsTo('/v4/spreadsheets/book-1/values/').length;
    const bad = await api.execute('add-bad', {});
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain(
      "no column 'colour' in the header row (columns: id, customer, amount, status)",
    );
    // Only the header was read: nothing was appended.
    expect(
      google
        .requestsTo('/v4/spreadsheets/book-1/values/')
        .slice(before)
        .map((r) => r.method),
    ).toEqual(['GET']);
  });

  it('updates one row by key or number with values:batchUpdate, refusing none or several matches', async () => {
    await action(
      'ship-order',
      {
        operation: 'update_rows',
        keyColumn: 'id',
        keyValue: '{{ id }}',
        rows: '{"status": "shipped", "amount": {{ amount }}}',
      },
      [
        { name: 'id', kind: 'text', label: 'Id', required: true },
        { name: 'amount', kind: 'number', label: 'Amount', required: true },
      ],
    );
    const shipped = await api.execute('ship-order', { id: '1003', amount: 4600 });
    expect(shipped.status, JSON.stringify(shipped.body)).toBe(200);
    const update = google.requestsTo('/v4/spreadsheets/book-1/values:batchUpdate').at(-1)!;
    expect(JSON.parse(update.body.toString())).toEqual({
      valueInputOption: 'USER_ENTERED',
      data: [
        { range: "'Orders'!D4", values: [['shipped']] },
        { range: "'Orders'!C4", values: [[4600]] },
      ],
    });
    expect(google.spreadsheets.get('book-1')!.sheets[0]!.rows[3]).toEqual([
      '1003',
      'Chiba',
      '4600',
      'shipped',
    ]);

    const none = await api.execute('ship-order', { id: '9999', amount: 1 });
    expect(none.status).toBe(422);
    expect(none.body.detail).toContain(
      "0 rows match id = '9999'; update_rows changes exactly one (nothing was written)",
    );

    await action('by-status', {
      operation: 'update_rows',
      keyColumn: 'status',
      keyValue: 'shipped',
      rows: '{"amount": 0}',
    });
    const several = await api.execute('by-status', {});
    expect(several.body.detail).toContain("2 rows match status = 'shipped'");

    await action(
      'by-number',
      { operation: 'update_rows', rowNumber: '{{ row }}', rows: '{"customer": "Aoki K."}' },
      [{ name: 'row', kind: 'number', label: 'Row', required: true }],
    );
    expect((await api.execute('by-number', { row: 2 })).status).toBe(200);
    expect(google.spreadsheets.get('book-1')!.sheets[0]!.rows[1]![1]).toBe('Aoki K.');
    const header = await api.execute('by-number', { row: 1 });
    expect(header.status).toBe(422);
    expect(header.body.detail).toContain('row 1 is the header');
    const beyond = await api.execute('by-number', { row: 40 });
    expect(beyond.status).toBe(422);
    expect(beyond.body.detail).toContain('row 40 holds no data');
  });

  it('deletes rows matching a key with one batchUpdate (bottom up), and clears a range', async () => {
    await action('delete-shipped', { operation: 'delete_rows', keyColumn: 'status', keyValue: 'shipped' });
    const deleted = await api.execute('delete-shipped', {});
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const batch = google.requestsTo('/v4/spreadsheets/book-1:batchUpdate').at(-1)!;
    expect(JSON.parse(batch.body.toString())).toEqual({
      requests: [
        { deleteDimension: { range: { sheetId: 0, dimension: 'ROWS', startIndex: 3, endIndex: 4 } } },
        { deleteDimension: { range: { sheetId: 0, dimension: 'ROWS', startIndex: 2, endIndex: 3 } } },
      ],
    });
    expect(google.spreadsheets.get('book-1')!.sheets[0]!.rows.map((r) => r[0])).toEqual([
      'id',
      '1001',
      '1004',
    ]);

    await action('clear-staff', { operation: 'clear_range', sheet: "Staff's list", range: 'A2:A' });
    const cleared = await api.execute('clear-staff', {});
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    const clear = google.requestsTo('/v4/spreadsheets/book-1/values/').at(-1)!;
    expect(decodeURIComponent(new URL(clear.url, 'http://x').pathname)).toBe(
      "/v4/spreadsheets/book-1/values/'Staff''s list'!A2:A:clear",
    );
    expect(google.spreadsheets.get('book-1')!.sheets[1]!.rows[1]).toEqual(['']);
  });

  it('checks actions at save time', async () => {
    const noRows = await action('bad-append', { operation: 'append_rows' });
    expect(noRows.status).toBe(422);
    expect(JSON.stringify(noRows.body.errors)).toContain('append_rows needs rows');
    const both = await action('bad-update', {
      operation: 'update_rows',
      rows: '{}',
      rowNumber: '2',
      keyColumn: 'id',
    });
    expect(JSON.stringify(both.body.errors)).toContain('either a row number or a key column');
    const clearAll = await action('bad-clear', { operation: 'clear_range' });
    expect(JSON.stringify(clearAll.body.errors)).toContain('clear_range needs a range');
    const unknown = await action('bad-ref', { operation: 'read_rows', spreadsheetId: '{{ nobody }}' });
    expect(JSON.stringify(unknown.body.errors)).toContain('nobody');
  });

  it('names unknown sheets, spreadsheets not shared with the account, and retries quota errors', async () => {
    await action('unknown-sheet', { operation: 'read_rows', sheet: 'Nope' });
    const unknown = await api.execute('unknown-sheet', {});
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toContain("Google Sheets refused the request: Unable to parse range: 'Nope'");

    await action('any-book', { operation: 'list_sheets', spreadsheetId: '{{ book }}' }, [
      { name: 'book', kind: 'text', label: 'Book', required: true },
    ]);
    const climbing = await api.execute('any-book', { book: '..' });
    expect(climbing.status).toBe(422);
    expect(climbing.body.detail).toContain('is not a spreadsheet id');

    await action('private', { operation: 'read_rows', spreadsheetId: 'private-book' });
    const denied = await api.execute('private', {});
    expect(denied.body.detail).toContain(`The spreadsheet is not shared with ${google.account}`);

    google.quotaErrors = 2;
    const retried = await api.execute('sheets-list', {});
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(google.quotaErrors).toBe(0);
    google.quotaErrors = 10;
    const exhausted = await api.execute('sheets-list', {});
    expect(exhausted.status).toBe(422);
    expect(exhausted.body.detail).toContain('Google Sheets quota exceeded (retried with backoff)');
    expect(google.quotaErrors).toBe(6); // the first call and three retries
    google.quotaErrors = 0;
  });
});

describe('access tokens and the grant', () => {
  it('refreshes an expired access token, and renews one Google refuses with 401', async () => {
    const refreshes = () =>
      google
        .requestsTo('/token')
        .filter((r) => new URLSearchParams(r.body.toString()).get('grant_type') === 'refresh_token');
    // Google refuses the kept token (401): Dogu renews it once and the call goes through.
    google.accessTokenSeconds = 30; // within Dogu's minute of margin: refreshed on every run after
    google.dropAccessTokens();
    const before = refreshes().length;
    const renewed = await api.execute('sheets-list', {});
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(refreshes().length).toBe(before + 1);
    expect((await api.execute('sheets-list', {})).status).toBe(200);
    expect((await api.execute('sheets-list', {})).status).toBe(200);
    expect(refreshes().length).toBe(before + 3);
    const refresh = new URLSearchParams(refreshes().at(-1)!.body.toString());
    expect(refresh.get('refresh_token')).toMatch(/^1\/\/refresh-/);
    expect(refresh.get('client_id')).toBe(google.client.id);

    // A token with time left is kept.
    google.accessTokenSeconds = 3600;
    expect((await api.execute('sheets-list', {})).status).toBe(200);
    const kept = refreshes().length;
    expect((await api.execute('sheets-list', {})).status).toBe(200);
    expect(refreshes().length).toBe(kept);
  });

  it('says "reconnect needed" when the grant was revoked at Google, and connects again', async () => {
    google.revokeAllGrants();
    google.dropAccessTokens();
    const failed = await api.execute('sheets-list', {});
    expect(failed.status).toBe(422);
    expect(failed.body.detail).toContain('reconnect needed');
    const tested = await api.post(
      `${base}/data-sources/orders-sheet/environments/development/test-connection`,
      {},
    );
    expect(tested.body.ok).toBe(false);
    expect(tested.body.error.message).toContain('reconnect needed');
    const marked = await api.get(`${base}/data-sources/orders-sheet`);
    expect(marked.body.environments.development.oauth).toMatchObject({
      account: google.account,
      reconnectNeeded: { since: expect.any(String), reason: expect.stringContaining('revoked or expired') },
    });

    const { back } = await connect();
    expect(back.headers.get('location')).toContain('oauth=connected');
    expect((await api.execute('sheets-list', {})).status).toBe(200);
    const fresh = await api.get(`${base}/data-sources/orders-sheet`);
    expect(fresh.body.environments.development.oauth.reconnectNeeded).toBeUndefined();
  });

  it('disconnects: the refresh token is revoked at Google and forgotten', async () => {
    const exchanged = new URLSearchParams(
      google
        .requestsTo('/token')
        .filter((r) => new URLSearchParams(r.body.toString()).get('grant_type') === 'refresh_token')
        .at(-1)!
        .body.toString(),
    ).get('refresh_token');
    const disconnected = await api.delete(oauthPath);
    expect(disconnected.status, JSON.stringify(disconnected.body)).toBe(204);
    const revoke = google.requestsTo('/revoke').at(-1)!;
    expect(Object.fromEntries(new URLSearchParams(revoke.body.toString()))).toEqual({ token: exchanged });
    const shown = await api.get(`${base}/data-sources/orders-sheet`);
    expect(shown.body.environments.development.oauth).toBeUndefined();
    const run = await api.execute('sheets-list', {});
    expect(run.body.detail).toContain('not connected: press Connect');
    const again = await api.delete(oauthPath);
    expect(again.status).toBe(409);
  });

  it('revokes the grant when the data source is deleted', async () => {
    const { back } = await connect();
    expect(back.headers.get('location')).toContain('oauth=connected');
    const grant = new URLSearchParams(google.requestsTo('/token').at(-1)!.body.toString());
    expect(grant.get('grant_type')).toBe('authorization_code');
    const revokes = google.requestsTo('/revoke').length;
    const actions = (await api.get(`${base}/actions`)).body.data as { id: string; dataSourceId: string }[];
    for (const a of actions.filter((a) => a.dataSourceId === 'orders-sheet')) {
      expect((await api.delete(`${base}/actions/${a.id}`)).status).toBe(204);
    }
    expect((await api.delete(`${base}/data-sources/orders-sheet`)).status).toBe(204);
    expect(google.requestsTo('/revoke')).toHaveLength(revokes + 1);
    expect(new URLSearchParams(google.requestsTo('/revoke').at(-1)!.body.toString()).get('token')).toMatch(
      /^1\/\/refresh-/,
    );
  });
});
