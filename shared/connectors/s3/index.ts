/** Object storage A (spec 2.3, 2.4, 5.2): S3 and S3-compatible stores; docs/object-storage.md. */
import { awsAuthenticationFormFields } from '../aws-federation/aws-credentials.ts';
import type { ConnectorDefinition } from '../connector.ts';
import { field } from '../form-field.ts';
import {
  type StorageActionInput,
  storageActionForm,
  storageActionShape,
  storageActionTexts,
  validateStorageAction,
} from '../object-storage/action.ts';
import { s3ConnectionSchema } from './definition.ts';

export const s3: ConnectorDefinition = {
  kind: 's3',
  actionKind: 'storage',
  label: { en: 'Amazon S3', ja: 'Amazon S3' },
  connection: s3ConnectionSchema,
  action: storageActionShape,
  secretFields: ['secretAccessKey'],
  form: {
    connection: [
      field('region', 'text', 'Region', 'リージョン', { required: true, default: 'ap-northeast-1' }),
      ...awsAuthenticationFormFields('keys'),
      field('endpoint', 'text', 'Endpoint (S3-compatible)', 'エンドポイント（S3 互換）', {
        hint: { en: 'For MinIO, R2 and the like; empty for AWS.', ja: 'MinIO や R2 など。AWS では空欄。' },
      }),
      field('forcePathStyle', 'boolean', 'Path-style addressing', 'パス形式のアドレス', { default: false }),
    ],
    action: storageActionForm({ en: 'Object key', ja: 'オブジェクトキー' }),
    authAction: false,
  },
  // Granted to the action-running functions only when the operator lets S3 data sources use the
  // functions' own role (context functionRoleKinds, authentication function-role). Keys and OIDC
  // bring their own rights; the IdP key secret the OIDC mode signs with is granted by the stack.
  cloudPermissions: ['s3:GetObject', 's3:ListBucket', 's3:PutObject'],
  actionTexts: (action) => storageActionTexts(action as StorageActionInput),
  validate: validateStorageAction,
};
