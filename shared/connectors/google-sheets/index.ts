/**
 * Google Sheets (spec 2.3 spreadsheet service, 5.3): connected with OAuth by a user pressing
 * Connect (decision 0041); actions list sheets, read, append, update and delete rows, clear a range.
 */
import { referencesIn } from '../../domain/template.ts';
import type { ConnectorDefinition } from '../connector.ts';
import { field } from '../form-field.ts';
import {
  googleProvider,
  type SheetsActionInput,
  sheetsActionShape,
  sheetsActionTexts,
  sheetsConnectionSchema,
  sheetsOperations,
} from './definition.ts';

export const googleSheets: ConnectorDefinition = {
  kind: 'google-sheets',
  actionKind: 'sheets',
  label: { en: 'Google Sheets', ja: 'Google スプレッドシート' },
  connection: sheetsConnectionSchema,
  action: sheetsActionShape,
  secretFields: ['clientSecret'],
  form: {
    connection: [
      field('clientId', 'text', 'OAuth client ID', 'OAuth クライアント ID', {
        hint: {
          en: 'A web application client of your Google Cloud project; its redirect URI is <Dogu URL>/api/v1/oauth/callback.',
          ja: 'Google Cloud プロジェクトのウェブアプリケーション用クライアント。リダイレクト URI は <Dogu の URL>/api/v1/oauth/callback です。',
        },
      }),
      field('clientSecret', 'password', 'OAuth client secret', 'OAuth クライアントシークレット', {
        secret: true,
      }),
      field('endpointsBaseUrl', 'text', 'Google endpoints (advanced)', 'Google のエンドポイント（詳細）', {
        hint: {
          en: 'Leave empty for Google. A base URL standing in for Google’s OAuth and Sheets hosts (a proxy).',
          ja: '通常は空欄。Google の OAuth と Sheets のホストの代わりに使うベース URL（プロキシなど）。',
        },
      }),
      field('timeoutMs', 'number', 'Time limit (ms)', '制限時間（ミリ秒）'),
    ],
    action: [
      field('operation', 'select', 'Operation', '操作', {
        required: true,
        options: sheetsOperations,
        default: 'read_rows',
      }),
      field('spreadsheetId', 'text', 'Spreadsheet ID', 'スプレッドシート ID', {
        required: true,
        hint: {
          en: 'From the URL: …/spreadsheets/d/<ID>/edit. May use {{ parameters }}.',
          ja: 'URL の …/spreadsheets/d/<ID>/edit の部分。{{ パラメーター }} を使えます。',
        },
      }),
      field('sheet', 'text', 'Sheet', 'シート', {
        hint: { en: 'The tab title; empty: the first sheet.', ja: 'タブ名。空欄なら最初のシート。' },
      }),
      field('range', 'text', 'Range (A1)', '範囲（A1 形式）', {
        hint: { en: 'e.g. A1:F500; empty: the whole sheet.', ja: '例: A1:F500。空欄ならシート全体。' },
      }),
      field('headerRow', 'number', 'Header row', '見出し行', { default: 1 }),
      field('filter', 'key-value-list', 'Filter (column = value)', '絞り込み（列 = 値）'),
      field('limit', 'number', 'Limit', '最大件数'),
      field('offset', 'number', 'Offset', '開始位置'),
      field('rows', 'code', 'Rows (JSON)', '行（JSON）', {
        language: 'json',
        hint: {
          en: 'Append/update: {"name": {{ name }}} or [{…}, {…}], keys are column names.',
          ja: '追加・更新: {"name": {{ name }}} または [{…}, {…}]。キーは列名です。',
        },
      }),
      field('keyColumn', 'text', 'Key column', 'キー列'),
      field('keyValue', 'text', 'Key value', 'キーの値'),
      field('rowNumber', 'text', 'Row number', '行番号'),
      field('valueRender', 'select', 'Values read', '読み取る値', {
        options: ['formatted', 'unformatted'],
        default: 'formatted',
      }),
      field('valueInput', 'select', 'Values written', '書き込む値', {
        options: ['USER_ENTERED', 'RAW'],
        default: 'USER_ENTERED',
      }),
    ],
    authAction: false,
  },
  cloudPermissions: [],
  actionTexts: (action) => sheetsActionTexts(action as SheetsActionInput),
  validate(action, context) {
    const sheets = action as SheetsActionInput;
    for (const [pointer, text] of sheetsActionTexts(sheets)) {
      for (const reference of referencesIn(text)) context.check(reference, pointer);
    }
    const writes = sheets.operation === 'append_rows' || sheets.operation === 'update_rows';
    if (writes && sheets.rows.trim() === '') context.fail('#/rows', `${sheets.operation} needs rows (JSON)`);
    if (sheets.operation === 'update_rows' || sheets.operation === 'delete_rows') {
      const byKey = sheets.keyColumn.trim() !== '';
      const byNumber = sheets.rowNumber.trim() !== '';
      if (byKey === byNumber)
        context.fail(
          '#/rowNumber',
          `${sheets.operation} needs either a row number or a key column (not both)`,
        );
    }
    if (sheets.operation === 'clear_range' && sheets.range.trim() === '')
      context.fail('#/range', 'clear_range needs a range (a whole sheet is not cleared by accident)');
  },
  oauth: { provider: googleProvider },
};
