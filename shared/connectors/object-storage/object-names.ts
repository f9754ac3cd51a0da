/**
 * Bucket and object names from templates (spec 2.4). A value fills only the place it stands in:
 * it can never name another bucket, climb out of the key's folder or end the key early.
 * - bucket: the whole rendered text must be a bucket name of the cloud (no `/`, `?`, `#`, spaces);
 * - key: `.` and `..` segments are refused (path-style URLs and proxies would resolve them),
 *   control characters are refused, and `?` and `#` stay characters of the key: every client
 *   here percent-encodes the key into the request path.
 */
import { DoguError } from '../../domain/errors.ts';
import { valueAsText } from '../../domain/json-template.ts';
import { referencePattern } from '../../domain/template.ts';

export type Resolve = (reference: string) => unknown;

export const renderName = (template: string, resolve: Resolve) =>
  template.replace(new RegExp(referencePattern.source, 'g'), (_, reference: string) =>
    valueAsText(resolve(reference)),
  );

const refused = (what: string, detail: string) =>
  new DoguError('argument_invalid', `The ${what} ${detail}`, {
    errors: [{ pointer: what === 'bucket' ? '#/bucket' : '#/objectKey', detail }],
  });

export interface BucketRule {
  pattern: RegExp;
  describe: string;
}

/** S3: 3–63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit. */
export const s3BucketRule: BucketRule = {
  pattern: /^(?!.*\.\.)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
  describe:
    '3 to 63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit',
};

/** GCS: 3–63 characters (222 with dots) of lower-case letters, digits, dashes, underscores and dots. */
export const gcsBucketRule: BucketRule = {
  pattern: /^(?!.*\.\.)[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/,
  describe:
    '3 to 222 lower-case letters, digits, dots, dashes and underscores, starting and ending with a letter or digit',
};

export function bucketName(template: string, resolve: Resolve, rule: BucketRule): string {
  const bucket = renderName(template, resolve).trim();
  if (bucket === '') throw refused('bucket', 'is empty.');
  if (!rule.pattern.test(bucket))
    throw refused('bucket', `'${shortened(bucket)}' is not a bucket name: use ${rule.describe}.`);
  return bucket;
}

/** At most 1,024 bytes of UTF-8 (both clouds). */
const maxKeyBytes = 1024;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const controlCharacters = /[\u0000-\u001f\u007f]/;

/** The object key (or, for a list, the prefix: `allowEmpty`). */
export function objectKey(
  template: string,
  resolve: Resolve,
  options: { allowEmpty?: boolean } = {},
): string {
  const key = renderName(template, resolve);
  if (key === '') {
    if (options.allowEmpty) return key;
    throw refused('object key', 'is empty.');
  }
  if (new TextEncoder().encode(key).length > maxKeyBytes)
    throw refused('object key', `is longer than ${maxKeyBytes} bytes.`);
  if (controlCharacters.test(key)) throw refused('object key', 'contains a control character.');
  if (key.split(/[/\\]/).some((segment) => segment === '.' || segment === '..'))
    throw refused(
      'object key',
      `'${shortened(key)}' contains a '.' or '..' segment: a key cannot climb out of its folder.`,
    );
  return key;
}

const shortened = (text: string) => (text.length > 80 ? `${text.slice(0, 80)}…` : text);
