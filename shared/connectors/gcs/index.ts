/** Object storage B (spec 2.3, 2.4, 5.2): Google Cloud Storage; docs/object-storage.md. */
import type { ConnectorDefinition, FormField } from '../connector.ts';
import {
  googleAuthenticationField,
  googleFederationEndpointFormFields,
  googleIdentityFormFields,
} from '../google-auth/federation.ts';
import {
  type StorageActionInput,
  signedUrlMethods,
  storageActionShape,
  storageActionTexts,
  storageOperations,
  validateStorageAction,
} from '../object-storage/action.ts';
import { gcsConnectionSchema } from './definition.ts';

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
      googleAuthenticationField,
      field('serviceAccountKey', 'textarea', 'Service account JSON key', 'サービスアカウント JSON キー', {
        secret: true,
      }),
      ...googleIdentityFormFields,
      field('storageEndpoint', 'text', 'Storage endpoint (optional)', 'Storage エンドポイント（任意）'),
      ...googleFederationEndpointFormFields,
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
};
