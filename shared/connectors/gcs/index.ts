/** Object storage B (spec 2.3, 2.4, 5.2): Google Cloud Storage; docs/object-storage.md. */
import type { ConnectorDefinition } from '../connector.ts';
import { field } from '../form-field.ts';
import {
  googleAuthenticationField,
  googleFederationEndpointFormFields,
  googleIdentityFormFields,
} from '../google-auth/federation.ts';
import {
  type StorageActionInput,
  storageActionForm,
  storageActionShape,
  storageActionTexts,
  validateStorageAction,
} from '../object-storage/action.ts';
import { gcsConnectionSchema } from './definition.ts';

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
    action: storageActionForm({ en: 'Object name', ja: 'オブジェクト名' }),
    authAction: false,
  },
  // No AWS rights: the key or the impersonated service account carries the bucket permissions, and
  // the IdP key secret the federation signs with is granted by the stack.
  cloudPermissions: [],
  actionTexts: (action) => storageActionTexts(action as StorageActionInput),
  validate: validateStorageAction,
};
