/**
 * A local HTTP server standing in for Google: the OAuth authorization, token (PKCE checked),
 * revocation and userinfo endpoints, and the Sheets API v4 over in-memory spreadsheets. It records
 * every request so tests can check exactly what Dogu sent, and refuses what Google would.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type ReceivedRequest, startHttpServer, type TestServer } from '../../support/http-server.ts';

export interface FakeSheet {
  sheetId: number;
  title: string;
  rows: string[][];
}

export interface FakeGoogle {
  server: TestServer;
  url: string;
  client: { id: string; secret: string };
  account: string;
  /** Spreadsheets by id, and whom each is shared with. */
  spreadsheets: Map<string, { sharedWith: string; sheets: FakeSheet[] }>;
  /** Seconds an access token lives (Dogu refreshes a minute early). */
  accessTokenSeconds: number;
  /** Forgets every access token: the next API call answers 401. */
  dropAccessTokens(): void;
  /** The user removed the app's access at Google: refresh tokens stop working. */
  revokeAllGrants(): void;
  /** Requests to one path prefix, in order. */
  requestsTo(path: string): ReceivedRequest[];
  /** Calls answered 429 before the next API call succeeds. */
  quotaErrors: number;
  close(): Promise<void>;
}

const json = (response: ServerResponse, status: number, body: unknown) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const googleError = (response: ServerResponse, status: number, message: string) =>
  json(response, status, { error: { code: status, message, status: 'ERROR' } });

function letterIndex(letters: string): number {
  let n = 0;
  for (const l of letters) n = n * 26 + (l.charCodeAt(0) - 64);
  return n - 1;
}
const letters = (index: number) => {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};

/** `'Title'!A2:C` → sheet title and bounds (0-based, inclusive; undefined: open). */
function parseRange(range: string) {
  const match = /^'((?:[^']|'')+)'(?:!([A-Z]*)(\d*)(?::([A-Z]*)(\d*))?)?$/.exec(range);
  if (!match) return undefined;
  return {
    title: match[1]!.replaceAll("''", "'"),
    startColumn: match[2] ? letterIndex(match[2]) : 0,
    startRow: match[3] ? Number(match[3]) - 1 : 0,
    endColumn: match[4] ? letterIndex(match[4]) : undefined,
    endRow: match[5]
      ? Number(match[5]) - 1
      : match[3] && !match[4] && match[2] === ''
        ? Number(match[3]) - 1
        : undefined,
  };
}

export async function startFakeGoogle(): Promise<FakeGoogle> {
  const client = { id: 'client-123.apps.googleusercontent.com', secret: 'client-secret-xyz' };
  const account = 'sheets.owner@example.com';
  const codes = new Map<string, { challenge: string; redirectUri: string; scope: string }>();
  const refreshTokens = new Set<string>();
  const accessTokens = new Map<string, number>();
  let counter = 0;
  const fake = {
    client,
    account,
    spreadsheets: new Map<string, { sharedWith: string; sheets: FakeSheet[] }>(),
    accessTokenSeconds: 3600,
    quotaErrors: 0,
  } as FakeGoogle;

  const issueAccessToken = () => {
    const token = `ya29.access-${++counter}`;
    accessTokens.set(token, Date.now() + fake.accessTokenSeconds * 1000);
    return token;
  };
  const bearer = (request: ReceivedRequest) => {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const expiresAt = token ? accessTokens.get(token) : undefined;
    return expiresAt !== undefined && expiresAt > Date.now();
  };

  const server = await startHttpServer((request, response) => {
    const url = new URL(request.url, 'http://fake');
    const form = new URLSearchParams(request.body.toString());
    if (request.method === 'GET' && url.pathname === '/o/oauth2/v2/auth') {
      // The user consents at once (or refuses when the login hint says so): back to the redirect URI.
      const redirect = new URL(url.searchParams.get('redirect_uri')!);
      redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
      if (url.searchParams.get('login_hint') === 'deny') redirect.searchParams.set('error', 'access_denied');
      else {
        const code = `code-${++counter}`;
        codes.set(code, {
          challenge: url.searchParams.get('code_challenge') ?? '',
          redirectUri: url.searchParams.get('redirect_uri') ?? '',
          scope: url.searchParams.get('scope') ?? '',
        });
        redirect.searchParams.set('code', code);
      }
      return response.writeHead(302, { location: redirect.href }).end();
    }
    if (request.method === 'POST' && url.pathname === '/token') {
      if (form.get('client_id') !== client.id || form.get('client_secret') !== client.secret)
        return json(response, 401, { error: 'invalid_client' });
      if (form.get('grant_type') === 'authorization_code') {
        const grant = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        if (
          !grant ||
          grant.redirectUri !== form.get('redirect_uri') ||
          createHash('sha256').update(verifier).digest('base64url') !== grant.challenge
        )
          return json(response, 400, { error: 'invalid_grant', error_description: 'Bad code or verifier' });
        const refreshToken = `1//refresh-${++counter}`;
        refreshTokens.add(refreshToken);
        return json(response, 200, {
          access_token: issueAccessToken(),
          expires_in: fake.accessTokenSeconds,
          refresh_token: refreshToken,
          scope: grant.scope,
          token_type: 'Bearer',
        });
      }
      if (form.get('grant_type') === 'refresh_token') {
        if (!refreshTokens.has(form.get('refresh_token') ?? ''))
          return json(response, 400, {
            error: 'invalid_grant',
            error_description: 'Token has been expired or revoked.',
          });
        return json(response, 200, {
          access_token: issueAccessToken(),
          expires_in: fake.accessTokenSeconds,
          token_type: 'Bearer',
        });
      }
      return json(response, 400, { error: 'unsupported_grant_type' });
    }
    if (request.method === 'POST' && url.pathname === '/revoke') {
      if (!refreshTokens.delete(form.get('token') ?? ''))
        return json(response, 400, { error: 'invalid_token' });
      return json(response, 200, {});
    }
    if (request.method === 'GET' && url.pathname === '/v1/userinfo') {
      if (!bearer(request)) return json(response, 401, { error: 'invalid_token' });
      return json(response, 200, { sub: '1001', email: account, email_verified: true });
    }
    if (url.pathname.startsWith('/v4/spreadsheets/')) {
      if (!bearer(request))
        return googleError(response, 401, 'Request had invalid authentication credentials.');
      if (fake.quotaErrors > 0) {
        fake.quotaErrors--;
        return googleError(response, 429, 'Quota exceeded for quota metric Read requests');
      }
      return sheetsApi(fake, request, url, response);
    }
    response.writeHead(404).end();
  });
  fake.server = server;
  fake.url = server.url;
  fake.dropAccessTokens = () => accessTokens.clear();
  fake.revokeAllGrants = () => refreshTokens.clear();
  fake.requestsTo = (path) =>
    server.requests.filter((r) => new URL(r.url, 'http://fake').pathname.startsWith(path));
  fake.close = () => server.close();
  return fake;
}

function sheetsApi(fake: FakeGoogle, request: ReceivedRequest, url: URL, response: ServerResponse) {
  const [, , , idAndVerb, collection, rangeAndVerb] = url.pathname.split('/');
  const [id, topVerb] = decodeURIComponent(idAndVerb!).split(':');
  const book = fake.spreadsheets.get(id!);
  if (!book) return googleError(response, 404, 'Requested entity was not found.');
  if (book.sharedWith !== fake.account)
    return googleError(response, 403, 'The caller does not have permission');
  const body = request.body.length > 0 ? JSON.parse(request.body.toString()) : {};
  const sheetOf = (range: string) => {
    const parsed = parseRange(range);
    const sheet = parsed && book.sheets.find((s) => s.title === parsed.title);
    return parsed && sheet ? { parsed, sheet } : undefined;
  };
  const setCell = (sheet: FakeSheet, row: number, column: number, value: unknown) => {
    while (sheet.rows.length <= row) sheet.rows.push([]);
    const cells = sheet.rows[row]!;
    while (cells.length <= column) cells.push('');
    cells[column] = String(value);
  };

  if (request.method === 'GET' && collection === undefined) {
    return json(response, 200, {
      sheets: book.sheets.map((s, index) => ({
        properties: {
          sheetId: s.sheetId,
          title: s.title,
          index,
          gridProperties: { rowCount: 1000, columnCount: 26 },
        },
      })),
    });
  }
  if (request.method === 'POST' && topVerb === 'batchUpdate' && collection === undefined) {
    for (const r of body.requests as { deleteDimension: { range: Record<string, number | string> } }[]) {
      const sheet = book.sheets.find((s) => s.sheetId === r.deleteDimension.range.sheetId);
      if (!sheet) return googleError(response, 400, `No grid with id: ${r.deleteDimension.range.sheetId}`);
      const start = Number(r.deleteDimension.range.startIndex);
      sheet.rows.splice(start, Number(r.deleteDimension.range.endIndex) - start);
    }
    return json(response, 200, { spreadsheetId: id, replies: [] });
  }
  if (request.method === 'POST' && collection === 'values:batchUpdate') {
    for (const change of body.data as { range: string; values: unknown[][] }[]) {
      const found = sheetOf(change.range);
      if (!found) return googleError(response, 400, `Unable to parse range: ${change.range}`);
      change.values.forEach((cells, r) => {
        cells.forEach((value, c) => {
          setCell(found.sheet, found.parsed.startRow + r, found.parsed.startColumn + c, value);
        });
      });
    }
    return json(response, 200, { totalUpdatedCells: body.data.length });
  }
  if (collection !== 'values' || !rangeAndVerb) return googleError(response, 404, 'Not found');
  const [, range, verb] = /^(.*?)(?::(append|clear))?$/.exec(decodeURIComponent(rangeAndVerb))!;
  if (request.method === 'GET') {
    const found = sheetOf(range!);
    if (!found) return googleError(response, 400, `Unable to parse range: ${range}`);
    const { parsed, sheet } = found;
    const last = Math.min(parsed.endRow ?? sheet.rows.length - 1, sheet.rows.length - 1);
    const values = sheet.rows
      .slice(parsed.startRow, last + 1)
      .map((cells) =>
        cells.slice(parsed.startColumn, parsed.endColumn === undefined ? undefined : parsed.endColumn + 1),
      );
    while (values.length > 0 && values.at(-1)!.every((c) => c === '')) values.pop();
    const render = url.searchParams.get('valueRenderOption');
    return json(response, 200, {
      range: `'${sheet.title}'!${letters(parsed.startColumn)}${parsed.startRow + 1}:Z${Math.max(last + 1, parsed.startRow + 1)}`,
      majorDimension: 'ROWS',
      values: values.map((cells) =>
        cells.map((c) => (render === 'UNFORMATTED_VALUE' && /^-?\d+(\.\d+)?$/.test(c) ? Number(c) : c)),
      ),
    });
  }
  if (request.method === 'POST' && verb === 'append') {
    const found = sheetOf(range!);
    if (!found) return googleError(response, 400, `Unable to parse range: ${range}`);
    const { sheet } = found;
    const first = sheet.rows.length;
    (body.values as unknown[][]).forEach((cells, i) => {
      cells.forEach((value, column) => {
        setCell(sheet, first + i, column, value);
      });
    });
    return json(response, 200, {
      updates: {
        updatedRange: `'${sheet.title}'!A${first + 1}:Z${first + body.values.length}`,
        updatedRows: body.values.length,
      },
    });
  }
  if (request.method === 'POST' && verb === 'clear') {
    const found = sheetOf(range!);
    if (!found) return googleError(response, 400, `Unable to parse range: ${range}`);
    const { parsed, sheet } = found;
    for (
      let r = parsed.startRow;
      r <= (parsed.endRow ?? sheet.rows.length - 1) && r < sheet.rows.length;
      r++
    ) {
      const cells = sheet.rows[r]!;
      for (let c = parsed.startColumn; c <= (parsed.endColumn ?? cells.length - 1) && c < cells.length; c++)
        cells[c] = '';
    }
    return json(response, 200, { clearedRange: range });
  }
  return googleError(response, 404, 'Not found');
}
