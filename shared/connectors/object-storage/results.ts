/**
 * What object-storage actions answer (spec 2.4): a listing as rows of `objectKey`,
 * `lastModified` (Unix seconds) and `size`; an upload as the object written; a download as the
 * object (media shown, text as a value, other bytes as a file) or, when large, a short-lived link;
 * a signed URL with its expiry.
 */
import type { MediaKind, StatementResult } from '../../domain/model.ts';

export interface ListedObject {
  objectKey: string;
  lastModified: number;
  size: number;
}

/** Objects above this are answered as a link (a result holds at most 5 MB; base64 grows by a third). */
export const maxInlineDownloadBytes = 3 * 1024 * 1024;
/** How long the link of a large download works. */
export const downloadLinkSeconds = 300;

export interface StorageStatementResult extends StatementResult {
  value?: unknown;
  media?: { kind: MediaKind; contentType: string; base64: string };
  /** A downloaded object that is neither media nor text: the console offers it as a file. */
  file?: { name: string; contentType: string; base64: string };
}

const base = (title: string): StorageStatementResult => ({
  title,
  status: 'succeeded',
  columns: [],
  rows: [],
  rowCount: 0,
  messages: [],
});

export function listResult(title: string, objects: ListedObject[], more: boolean): StorageStatementResult {
  return {
    ...base(title),
    columns: [
      { name: 'objectKey', type: 'string' },
      { name: 'lastModified', type: 'number' },
      { name: 'size', type: 'number' },
    ],
    rows: objects.map((o) => ({ ...o })),
    rowCount: objects.length,
    ...(more
      ? {
          truncated: true,
          messages: [
            `The listing stopped at ${objects.length} objects (the result limit); narrow it with a longer prefix.`,
          ],
        }
      : {}),
  };
}

export function objectRowResult(title: string, row: Record<string, unknown>): StorageStatementResult {
  return {
    ...base(title),
    columns: Object.entries(row).map(([name, value]) => ({
      name,
      type: typeof value === 'number' ? 'number' : 'string',
    })),
    rows: [row],
    rowCount: 1,
  };
}

export interface DownloadedObject {
  objectKey: string;
  contentType: string;
  size: number;
  lastModified?: number;
  bytes: Uint8Array;
}

export function downloadResult(title: string, object: DownloadedObject): StorageStatementResult {
  const { bytes, ...described } = object;
  const result = objectRowResult(title, { ...described });
  const type = object.contentType.split(';')[0]!.trim().toLowerCase();
  const media = mediaKindOf(type);
  if (media) result.media = { kind: media, contentType: type, base64: base64Of(bytes) };
  else if (isText(type)) result.value = new TextDecoder().decode(bytes);
  else result.file = { name: fileNameOf(object.objectKey), contentType: type, base64: base64Of(bytes) };
  return result;
}

export function downloadLinkResult(
  title: string,
  object: Omit<DownloadedObject, 'bytes'>,
  link: { signedUrl: string; expiresAt: number },
): StorageStatementResult {
  const result = objectRowResult(title, { ...object, ...link });
  result.messages.push(
    `The object is ${object.size} bytes, more than ${maxInlineDownloadBytes} are answered as a link; it works for ${downloadLinkSeconds / 60} minutes.`,
  );
  return result;
}

export const signedUrlResult = (
  title: string,
  signed: { signedUrl: string; method: string; expiresAt: number },
) => objectRowResult(title, signed);

const mediaKindOf = (type: string): MediaKind | undefined =>
  type.startsWith('image/')
    ? 'image'
    : type.startsWith('video/')
      ? 'video'
      : type === 'application/pdf'
        ? 'pdf'
        : undefined;

const isText = (type: string) =>
  type.startsWith('text/') || type === 'application/json' || type.endsWith('+json') || type.endsWith('+xml');

const fileNameOf = (key: string) => key.split('/').pop() || 'download';

export function base64Of(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** The upload's content, decoded from the file argument (checked as base64 when it was bound). */
export function fileContent(file: { contentBase64: string }): Uint8Array {
  return new Uint8Array(Buffer.from(file.contentBase64, 'base64'));
}
