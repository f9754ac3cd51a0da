/**
 * Amazon Athena (spec 2.2, 2.3): SQL actions whose statements each run as one query, parameters
 * bound as execution parameters, results read page by page (docs/warehouses.md).
 */
import { awsAuthenticationFormFields } from '../aws-federation/aws-credentials.ts';
import type { ConnectorDefinition } from '../connector.ts';
import { field } from '../form-field.ts';
import { sqlActionFields, sqlActionShape, sqlActionTexts, validateSqlAction } from '../sql/definition.ts';
import { athenaCloudPermissions, athenaConnectionSchema } from './definition.ts';

export const athena: ConnectorDefinition = {
  kind: 'athena',
  actionKind: 'sql',
  label: { en: 'Amazon Athena', ja: 'Amazon Athena' },
  connection: athenaConnectionSchema,
  action: sqlActionShape,
  secretFields: ['secretAccessKey'],
  form: {
    connection: [
      field('region', 'text', 'Region', 'リージョン', { required: true, default: 'ap-northeast-1' }),
      field('database', 'text', 'Database', 'データベース', { required: true }),
      field('outputLocation', 'text', 'Query result location', 'クエリ結果の保存先', {
        required: true,
        hint: { en: 'For example s3://bucket/athena-results/', ja: '例: s3://bucket/athena-results/' },
      }),
      field('workgroup', 'text', 'Workgroup', 'ワークグループ', {
        hint: { en: 'Default: primary.', ja: '省略時は primary です。' },
      }),
      ...awsAuthenticationFormFields('keys'),
      field('statementTimeoutMs', 'number', 'Query time limit (ms)', 'クエリの制限時間（ミリ秒）'),
      field('endpoint', 'text', 'Endpoint (optional)', 'エンドポイント（任意）', {
        hint: { en: 'A VPC endpoint URL, for example.', ja: 'VPC エンドポイントの URL など。' },
      }),
    ],
    action: sqlActionFields,
    authAction: false,
  },
  cloudPermissions: athenaCloudPermissions,
  actionTexts: sqlActionTexts,
  validate: (action, context) => validateSqlAction(action, context, 'athena'),
};
