/** Object storage B (spec 2.3, 2.4, 5.2): Google Cloud Storage; docs/object-storage.md. */
import type { ConnectorDefinition, FormField } from '../connector.ts';
import {
  type StorageActionInput,
  signedUrlMethods,
  storageActionShape,
  storageActionTexts,
  storageOperations,
  validateStorageAction,
} from '../object-storage/action.ts';
import { gcsAuthenticationModes, gcsConnectionSchema } from './definition.ts';

const field = (
  name: string,
  type: FormField['type'],
  en: string,
  ja: string,
  extra: Partial<FormField> = {},
) => ({ name, type, label: { en, ja }, ...extra }) satisfies FormField;

export const gcs: ConnectorDefinition = {
  kind: 'gcs',
  actionKind: 'storage',
  label: { en: 'Google Cloud Storage', ja: 'Google Cloud Storage' },
  connection: gcsConnectionSchema,
  action: storageActionShape,
  secretFields: ['serviceAccountKey'],
  form: {
    connection: [
      field('authentication', 'select', 'Authentication', '認証方式', {
        options: gcsAuthenticationModes,
        default: 'service-account-key',
        hint: {
          en: 'service-account-key: a JSON key; workload-identity: no stored key, Dogu’s ID token is trusted by a pool provider.',
          ja: 'service-account-key: JSON キー、workload-identity: キーを保存せず、プールのプロバイダーが Dogu の ID トークンを信頼します。',
        },
      }),
      field('serviceAccountKey', 'textarea', 'Service account JSON key', 'サービスアカウント JSON キー', {
        secret: true,
      }),
      field('provider', 'text', 'Workload identity provider', 'Workload Identity プロバイダー', {
        hint: {
          en: 'projects/<project number>/locations/global/workloadIdentityPools/<pool>/providers/<provider>',
          ja: 'projects/<プロジェクト番号>/locations/global/workloadIdentityPools/<プール>/providers/<プロバイダー>',
        },
      }),
      field('serviceAccount', 'text', 'Service account', 'サービスアカウント', {
        hint: {
          en: '<name>@<project>.iam.gserviceaccount.com',
          ja: '<名前>@<プロジェクト>.iam.gserviceaccount.com',
        },
      }),
      field('storageEndpoint', 'text', 'Storage endpoint (optional)', 'Storage エンドポイント（任意）'),
      field('stsEndpoint', 'text', 'STS endpoint (optional)', 'STS エンドポイント（任意）'),
      field(
        'iamCredentialsEndpoint',
        'text',
        'IAM Credentials endpoint (optional)',
        'IAM Credentials エンドポイント（任意）',
      ),
    ],
    action: [
      field('operation', 'select', 'Operation', '操作', {
        required: true,
        options: storageOperations,
        default: 'download',
      }),
      field('bucket', 'text', 'Bucket', 'バケット', { required: true }),
      field('objectKey', 'text', 'Object name (list: prefix)', 'オブジェクト名（一覧: プレフィックス）'),
      field('fileParameter', 'text', 'File parameter (upload)', 'ファイルパラメーター（アップロード）'),
      field('method', 'select', 'Signed URL method', '署名付き URL のメソッド', {
        options: signedUrlMethods,
        default: 'GET',
      }),
      field('expiresInSeconds', 'number', 'Signed URL lifetime (s)', '署名付き URL の有効期間（秒）', {
        default: 3600,
      }),
    ],
    authAction: false,
  },
  // No AWS rights: the key or the impersonated service account carries the bucket permissions, and
  // the IdP key secret the federation signs with is granted by the stack.
  cloudPermissions: [],
  actionTexts: (action) => storageActionTexts(action as StorageActionInput),
  validate: validateStorageAction,
  runtime: async () => (await import('./runtime.ts')).gcsRuntime(),
};
