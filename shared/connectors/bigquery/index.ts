/**
 * Google BigQuery (spec 2.2, 2.3): SQL actions whose statements each run as one query job in
 * standard SQL, parameters bound positionally with explicit types, results read page by page.
 */
import type { ConnectorDefinition } from '../connector.ts';
import { field } from '../form-field.ts';
import {
  googleAuthenticationField,
  googleFederationEndpointFormFields,
  googleIdentityFormFields,
} from '../google-auth/federation.ts';
import { sqlActionFields, sqlActionShape, sqlActionTexts, validateSqlAction } from '../sql/definition.ts';
import { bigQueryConnectionSchema } from './definition.ts';

export const bigquery: ConnectorDefinition = {
  kind: 'bigquery',
  actionKind: 'sql',
  label: { en: 'Google BigQuery', ja: 'Google BigQuery' },
  connection: bigQueryConnectionSchema,
  dryRun: true,
  action: sqlActionShape,
  secretFields: ['serviceAccountKey'],
  form: {
    connection: [
      field('projectId', 'text', 'Project ID', 'プロジェクト ID', { required: true }),
      googleAuthenticationField,
      field('serviceAccountKey', 'textarea', 'Service account key (JSON)', 'サービスアカウントキー（JSON）', {
        secret: true,
        hint: {
          en: 'The whole JSON key file. Roles: BigQuery Data Viewer and BigQuery Job User. Write-only: leave empty to keep the stored key.',
          ja: 'JSON キーファイルの内容全体。必要なロール: BigQuery データ閲覧者、BigQuery ジョブユーザー。書き込み専用です。空のままにすると保存済みのキーを使います。',
        },
      }),
      ...googleIdentityFormFields,
      field('location', 'text', 'Location', 'ロケーション', {
        hint: { en: 'For example US, EU or asia-northeast1.', ja: '例: US、EU、asia-northeast1' },
      }),
      field('defaultDataset', 'text', 'Default dataset', 'デフォルトのデータセット'),
      field(
        'maximumBytesBilled',
        'number',
        'Maximum bytes billed per query',
        'クエリごとの課金バイト数の上限',
        {
          hint: {
            en: 'A query that would bill more fails without charge.',
            ja: 'これを超えて課金されるクエリは課金なしで失敗します。',
          },
        },
      ),
      field(
        'dryRunFirst',
        'boolean',
        'Estimate bytes with a dry run first',
        '実行前にドライランで処理バイト数を見積もる',
      ),
      field('statementTimeoutMs', 'number', 'Query time limit (ms)', 'クエリの制限時間（ミリ秒）'),
      field('apiEndpoint', 'text', 'API endpoint (optional)', 'API エンドポイント（任意）'),
      ...googleFederationEndpointFormFields,
    ],
    action: sqlActionFields,
    authAction: false,
  },
  // Google's permissions are the service account's (spec 2.3); the executing function needs no AWS rights.
  cloudPermissions: [],
  actionTexts: sqlActionTexts,
  validate: (action, context) => validateSqlAction(action, context, 'bigquery'),
};
