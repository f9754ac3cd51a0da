/** The Google Sheets kind's schemas (spec 2.3 spreadsheet service): connection per environment and the action. */
import * as z from 'zod';
import type { ActionInput } from '../../domain/definitions/action.ts';
import { keyValueListSchema } from '../../domain/definitions/data-source.ts';
import type { OAuthProvider } from '../../domain/ports.ts';

export const sheetsConnectionSchema = z.object({
  /** The OAuth client of a Google Cloud project (docs/sheets.md); else DOGU_GOOGLE_OAUTH_CLIENT_ID. */
  clientId: z.string().max(300).optional(),
  /** Write-only; else DOGU_GOOGLE_OAUTH_CLIENT_SECRET. */
  clientSecret: z.string().max(300).optional(),
  /**
   * One base URL standing in for Google's OAuth, userinfo and Sheets hosts (a proxy, or tests);
   * empty: Google's own.
   */
  endpointsBaseUrl: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
  timeoutMs: z.number().int().min(1000).max(60_000).optional(),
});
export type SheetsConnection = z.infer<typeof sheetsConnectionSchema>;

export const sheetsOperations = [
  'list_sheets',
  'read_rows',
  'append_rows',
  'update_rows',
  'delete_rows',
  'clear_range',
] as const;
export type SheetsOperation = (typeof sheetsOperations)[number];

export const sheetsActionShape = {
  kind: z.literal('sheets'),
  operation: z.enum(sheetsOperations),
  /** The id in the spreadsheet's URL (…/spreadsheets/d/<id>/edit); may hold {{ references }}. */
  spreadsheetId: z.string().min(1).max(300),
  /** The sheet (tab) title; empty: the first sheet. */
  sheet: z.string().max(300).default(''),
  /** An A1 range inside the sheet, e.g. A1:F500; empty: the whole sheet. */
  range: z.string().max(100).default(''),
  /** Which row of the range holds the column names (1 = its first row). */
  headerRow: z.number().int().min(1).max(1000).default(1),
  limit: z.number().int().min(1).max(100_000).optional(),
  offset: z.number().int().min(0).max(10_000_000).default(0),
  /** read_rows: only rows whose column (key) equals the value (text compared as the sheet shows it). */
  filter: keyValueListSchema.default([]),
  /** append_rows / update_rows: a JSON object or array of objects by column name; {{ references }} become JSON values. */
  rows: z.string().max(100_000).default(''),
  /** update_rows / delete_rows by key: the column to match and the value it must equal. */
  keyColumn: z.string().max(300).default(''),
  keyValue: z.string().max(8000).default(''),
  /** update_rows / delete_rows by the sheet's row number (1-based, as the sheet shows it). */
  rowNumber: z.string().max(200).default(''),
  /** formatted: as the sheet shows values (text); unformatted: numbers and booleans as such. */
  valueRender: z.enum(['formatted', 'unformatted']).default('formatted'),
  /** How written values are read: as if typed (formulas, dates) or taken as they are. */
  valueInput: z.enum(['USER_ENTERED', 'RAW']).default('USER_ENTERED'),
};
const sheetsActionFields = z.object(sheetsActionShape);
export type SheetsActionInput = ActionInput & z.infer<typeof sheetsActionFields>;

/** Every templated text of a Sheets action, by JSON Pointer. */
export function sheetsActionTexts(action: SheetsActionInput): [string, string][] {
  const texts: [string, string][] = [
    ['#/spreadsheetId', action.spreadsheetId],
    ['#/sheet', action.sheet],
    ['#/range', action.range],
    ['#/rows', action.rows],
    ['#/keyValue', action.keyValue],
    ['#/rowNumber', action.rowNumber],
  ];
  action.filter.forEach((f, i) => {
    texts.push([`#/filter/${i}/value`, f.value]);
  });
  return texts;
}

/** Google's hosts, or one base URL standing in for all of them. */
export function googleEndpoints(connection: SheetsConnection) {
  const base = connection.endpointsBaseUrl?.replace(/\/+$/, '');
  return {
    authorizeUrl: base ? `${base}/o/oauth2/v2/auth` : 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: base ? `${base}/token` : 'https://oauth2.googleapis.com/token',
    revokeUrl: base ? `${base}/revoke` : 'https://oauth2.googleapis.com/revoke',
    userinfoUrl: base ? `${base}/v1/userinfo` : 'https://openidconnect.googleapis.com/v1/userinfo',
    sheetsUrl: base ? `${base}/v4/spreadsheets` : 'https://sheets.googleapis.com/v4/spreadsheets',
  };
}

/** Read and write every spreadsheet the account can (docs/sheets.md explains why not drive.file). */
export const sheetsScopes = ['openid', 'email', 'https://www.googleapis.com/auth/spreadsheets'] as const;

/** Google's OAuth provider for one environment (the client from the data source, else the deployment). */
export function googleProvider(connection: Record<string, unknown>): OAuthProvider {
  const settings = connection as SheetsConnection;
  const endpoints = googleEndpoints(settings);
  const clientId = settings.clientId || process.env.DOGU_GOOGLE_OAUTH_CLIENT_ID;
  const clientSecret = settings.clientSecret || process.env.DOGU_GOOGLE_OAUTH_CLIENT_SECRET;
  return {
    authorizeUrl: endpoints.authorizeUrl,
    tokenUrl: endpoints.tokenUrl,
    revokeUrl: endpoints.revokeUrl,
    userinfoUrl: endpoints.userinfoUrl,
    scopes: sheetsScopes,
    // A refresh token is issued only with offline access, and again only when consent is asked.
    authorizeParameters: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
    ...(clientId ? { clientId } : {}),
    ...(clientSecret ? { clientSecret } : {}),
    clientFields: { clientId: 'clientId', clientSecret: 'clientSecret' },
  };
}
