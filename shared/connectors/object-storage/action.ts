/**
 * The object-storage action (spec 2.4), shared by the S3 and GCS kinds: upload, download, list
 * objects, issue a signed URL. Bucket and object key are templates; how their values are kept
 * inside the bucket and the key is object-names.ts.
 */
import * as z from 'zod';
import type { ActionInput } from '../../domain/definitions/action.ts';
import { referencesIn } from '../../domain/template.ts';
import type { FormField, ValidationContext } from '../connector.ts';
import { field } from '../form-field.ts';

export const storageOperations = ['upload', 'download', 'list', 'signed-url'] as const;
export type StorageOperation = (typeof storageOperations)[number];
export const signedUrlMethods = ['GET', 'PUT'] as const;

/** Spec 8: a signed URL made with keys lives at most 24 hours. */
export const maxSignedUrlSeconds = 24 * 3600;
export const defaultSignedUrlSeconds = 3600;

export const storageActionShape = {
  kind: z.literal('storage'),
  operation: z.enum(storageOperations, {
    error: 'must be upload, download, list or signed-url',
  }),
  /** The bucket; may use {{ parameters }}, vars, secrets and currentUser.* (the value must be a bucket name). */
  bucket: z.string().min(1).max(300),
  /** The object key (list: a prefix filter, optional); values are kept inside the key. */
  objectKey: z.string().max(2000).default(''),
  /** Upload: the file parameter whose content and content type are written. */
  fileParameter: z.string().max(64).optional(),
  /** Signed URL: what the URL lets its holder do. */
  method: z.enum(signedUrlMethods, { error: 'must be GET or PUT' }).default('GET'),
  /** Signed URL: how long it works, in seconds (capped by the credentials' lifetime). */
  expiresInSeconds: z.number().int().min(1).max(maxSignedUrlSeconds).default(defaultSignedUrlSeconds),
};
const storageActionFields = z.object(storageActionShape);
export type StorageActionInput = ActionInput & z.infer<typeof storageActionFields>;

export function storageActionTexts(action: StorageActionInput): [string, string][] {
  return [
    ['#/bucket', action.bucket],
    ['#/objectKey', action.objectKey ?? ''],
  ];
}

/** Save-time checks: references known, upload names a required file parameter, a key where one is needed. */
export function validateStorageAction(action: ActionInput, context: ValidationContext): void {
  const storage = action as StorageActionInput;
  for (const [pointer, text] of storageActionTexts(storage)) {
    for (const reference of referencesIn(text)) context.check(reference, pointer);
  }
  storage.parameters.forEach((parameter, i) => {
    if (parameter.kind === 'array' && parameter.format === 'sql')
      context.fail(`#/parameters/${i}/format`, 'the sql format is for SQL actions; use json or delimiter');
  });
  const keyless = storage.operation === 'list';
  if (!keyless && (storage.objectKey ?? '').trim() === '')
    context.fail('#/objectKey', `a ${storage.operation} needs an object key`);
  if (storage.operation === 'upload') {
    const name = storage.fileParameter;
    const parameter = storage.parameters.find((p) => p.name === name);
    if (!name) context.fail('#/fileParameter', 'an upload needs the file parameter whose content it writes');
    else if (!parameter) context.fail('#/fileParameter', `no parameter '${name}'`);
    else if (parameter.kind !== 'file')
      context.fail('#/fileParameter', `parameter '${name}' is ${parameter.kind}, not a file`);
    else if (!parameter.required)
      context.fail('#/fileParameter', `parameter '${name}' must be required: an upload needs content`);
  }
  for (const pointer of ['#/bucket', '#/objectKey'] as const) {
    const text = pointer === '#/bucket' ? storage.bucket : (storage.objectKey ?? '');
    for (const reference of referencesIn(text)) {
      const parameter = storage.parameters.find((p) => p.name === reference);
      if (parameter?.kind === 'file')
        context.fail(pointer, `{{ ${reference} }} is a file; a name can hold only text`);
    }
  }
}

/** The action form both object stores show; only what the store calls an object's key differs. */
export function storageActionForm(objectKey: { en: string; ja: string }): FormField[] {
  return [
    field('operation', 'select', 'Operation', '操作', {
      required: true,
      options: storageOperations,
      default: 'download',
    }),
    field('bucket', 'text', 'Bucket', 'バケット', { required: true }),
    field('objectKey', 'text', `${objectKey.en} (list: prefix)`, `${objectKey.ja}（一覧: プレフィックス）`),
    field('fileParameter', 'text', 'File parameter (upload)', 'ファイルパラメーター（アップロード）'),
    field('method', 'select', 'Signed URL method', '署名付き URL のメソッド', {
      options: signedUrlMethods,
      default: 'GET',
    }),
    field('expiresInSeconds', 'number', 'Signed URL lifetime (s)', '署名付き URL の有効期間（秒）', {
      default: defaultSignedUrlSeconds,
    }),
  ];
}
