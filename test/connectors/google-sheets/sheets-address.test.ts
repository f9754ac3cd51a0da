/**
 * The Sheets kind's API calls go through Dogu's HTTP client: a base URL standing in for Google
 * that names a metadata address is refused before any connection, with the token never sent.
 */
import { describe, expect, it } from 'vitest';
import { sheetsRuntime } from '../../../shared/connectors/google-sheets/runtime.ts';
import { AccessTokens } from '../../../shared/connectors/oauth/access-tokens.ts';
import type { Action, DataSource } from '../../../shared/domain/model.ts';
import type { EngineRun, OAuthClient } from '../../../shared/domain/ports.ts';

const oauth: OAuthClient = {
  exchangeCode: async () => ({ accessToken: 'unused', expiresAt: Date.now() + 3_600_000, scopes: [] }),
  refresh: async () => ({ accessToken: 'ya29.sheets', expiresAt: Date.now() + 3_600_000, scopes: [] }),
  revoke: async () => {},
  accountOf: async () => undefined,
};

describe('Google Sheets and the address rule', () => {
  it('refuses a base URL at a metadata address', async () => {
    const runtime = sheetsRuntime(new AccessTokens(oauth));
    const connection = {
      endpointsBaseUrl: 'http://169.254.169.254',
      oauth: { refreshToken: 'refresh-1', account: 'ops@example.com' },
    };
    const run: EngineRun = {
      action: {
        id: 'sheets',
        name: 'Sheets',
        kind: 'sheets',
        operation: 'list_sheets',
        spreadsheetId: 'abc123',
        sheet: '',
        range: '',
        headerRow: 1,
        offset: 0,
        filter: [],
        rows: '',
        keyColumn: '',
        keyValue: '',
        rowNumber: '',
        valueRender: 'formatted',
        valueInput: 'USER_ENTERED',
        parameters: [],
      } as unknown as Action,
      dataSource: { id: 'sheets', kind: 'google-sheets' } as DataSource,
      environmentId: 'prod',
      connection,
      key: 'shop/sheets/prod',
      values: {},
      signal: AbortSignal.timeout(10_000),
      deadlineAt: Date.now() + 10_000,
      callAction: async () => [],
    } as unknown as EngineRun;
    const [result] = await runtime.run(run);
    expect(result?.status).toBe('failed');
    expect(result?.error?.message).toMatch(
      /169\.254\.169\.254 is a link-local or cloud metadata address, which actions may never reach/,
    );
  });
});
