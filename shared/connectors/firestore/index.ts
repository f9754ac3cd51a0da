/**
 * Document databases (spec 2.3, 2.5): Firestore in document mode (`db`, `firestore`) or Datastore
 * in key-entity mode (`datastore`); the action is JavaScript run in the sandbox, the client stays
 * outside it and performs each operation with the data source's own key (docs/javascript.md).
 */
import { referencesIn } from '../../domain/template.ts';
import type { ConnectorDefinition } from '../connector.ts';
import { field } from '../form-field.ts';
import {
  type DocumentActionInput,
  documentActionShape,
  documentActionTexts,
  firestoreConnectionSchema,
} from './definition.ts';

export const firestore: ConnectorDefinition = {
  kind: 'firestore',
  actionKind: 'document',
  label: { en: 'Firestore / Datastore', ja: 'Firestore / Datastore' },
  connection: firestoreConnectionSchema,
  action: documentActionShape,
  secretFields: ['serviceAccountKey'],
  form: {
    connection: [
      field('mode', 'select', 'Mode', 'モード', {
        options: ['document', 'key-entity'],
        default: 'document',
        hint: {
          en: 'document: Firestore (db, firestore); key-entity: Datastore (datastore).',
          ja: 'document は Firestore（db、firestore）、key-entity は Datastore（datastore）です。',
        },
      }),
      field('projectId', 'text', 'Project ID', 'プロジェクト ID', { required: true }),
      field('databaseId', 'text', 'Database ID (optional)', 'データベース ID（任意）'),
      field('serviceAccountKey', 'password', 'Service account key (JSON)', 'サービスアカウントキー（JSON）', {
        secret: true,
        hint: {
          en: 'The whole JSON key file. Read and write: Cloud Datastore User; read only: Viewer.',
          ja: 'JSON キーファイル全体です。読み書きには Cloud Datastore ユーザー、読み取りのみには閲覧者ロールが必要です。',
        },
      }),
      field('apiEndpoint', 'text', 'API endpoint (optional)', 'API エンドポイント（任意）'),
    ],
    action: [
      {
        name: 'code',
        type: 'code',
        language: 'javascript',
        required: true,
        label: { en: 'Script', ja: 'スクリプト' },
        hint: {
          en: 'An async function body: const snap = await db.collection("orders").where("status", "==", {{ status }}).get(); return snap.docs.map((d) => d.data());',
          ja: 'async 関数の本体です。例: const snap = await db.collection("orders").where("status", "==", {{ status }}).get(); return snap.docs.map((d) => d.data());',
        },
      },
    ],
    authAction: false,
  },
  cloudPermissions: [],
  actionTexts: (action) => documentActionTexts(action as DocumentActionInput),
  validate(action, context) {
    for (const [pointer, text] of documentActionTexts(action as DocumentActionInput)) {
      for (const reference of referencesIn(text)) context.check(reference, pointer);
    }
  },
};
