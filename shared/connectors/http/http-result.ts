/**
 * Turns an HTTP response into the result of an HTTP API action: JSON becomes
 * a table where it has the shape of one, text a single value, images, videos
 * and PDFs media (spec 1), and a status outside 2xx a failed result.
 * Decisions and their reasons: docs/decisions/0009-http-engine.md.
 */
import { annotateMediaColumns } from '../../domain/media.ts';
import type { MediaKind, StatementResult } from '../../domain/model.ts';
import type { HttpCallResult } from '../../domain/ports.ts';
import { tableOf } from '../../domain/value-table.ts';

export interface HttpStatementResult extends StatementResult {
  http: {
    status: number;
    /** The media type without parameters, lower-case; absent when the response named none. */
    contentType?: string;
    bytes: number;
  };
  /** The body as a value: parsed JSON, or the text. Absent for empty, media and other binary bodies. */
  value?: unknown;
  /** The body itself, when it is an image, a video or a PDF within maxMediaBytes. */
  media?: { kind: MediaKind; contentType: string; base64: string };
}

export interface ShapeHttpResultOptions {
  /** Media bodies above this are not embedded (base64 grows them by a third). Default 5 MiB. */
  maxMediaBytes?: number;
}

const defaultMaxMediaBytes = 5 * 1024 * 1024;
const excerptLength = 200;

type Body =
  | { kind: 'empty' }
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'media'; media: MediaKind }
  | { kind: 'binary' };

export function shapeHttpResult(
  result: HttpCallResult,
  title: string,
  options: ShapeHttpResultOptions = {},
): HttpStatementResult {
  const contentTypeHeader = result.headers['content-type'];
  const contentType = mediaTypeOf(contentTypeHeader);
  const messages: string[] = [];
  const body = readBody(result.body, contentType, charsetOf(contentTypeHeader), messages);
  const shaped: HttpStatementResult = {
    title,
    status: 'succeeded',
    columns: [],
    rows: [],
    rowCount: 0,
    messages,
    http: { status: result.status, ...(contentType ? { contentType } : {}), bytes: result.body.length },
  };

  switch (body.kind) {
    case 'json':
      shaped.value = body.value;
      Object.assign(shaped, tableOf(body.value, messages));
      break;
    case 'text':
      shaped.value = body.text;
      Object.assign(shaped, tableOf(body.text, messages));
      break;
    case 'media': {
      const limit = options.maxMediaBytes ?? defaultMaxMediaBytes;
      if (result.body.length > limit) {
        messages.push(
          `The ${body.media} (${result.body.length} bytes) is larger than ${limit} bytes and is not shown.`,
        );
      } else {
        shaped.media = { kind: body.media, contentType: contentType!, base64: base64Of(result.body) };
      }
      break;
    }
    case 'binary':
      messages.push(
        `The response is binary (${contentType ?? 'no content type'}, ${result.body.length} bytes) and is not shown.`,
      );
      break;
    case 'empty':
      break;
  }
  shaped.columns = annotateMediaColumns(shaped.columns, shaped.rows);
  shaped.rowCount = shaped.rows.length;

  if (result.status < 200 || result.status > 299) {
    shaped.status = 'failed';
    // The status and what the API said; request headers are never echoed (they hold credentials).
    shaped.error = { code: 'data_source_error', message: failureMessage(result, body) };
  }
  return shaped;
}

// ---------------------------------------------------------------- reading the body

function readBody(
  bytes: Uint8Array,
  contentType: string | undefined,
  charset: string,
  messages: string[],
): Body {
  if (bytes.length === 0) return { kind: 'empty' };
  const media = contentType === undefined ? undefined : mediaKindOf(contentType);
  if (media) return { kind: 'media', media };
  if (contentType === undefined) {
    // No type named: JSON if it parses, text if it is UTF-8, else binary.
    const text = decodeStrictUtf8(bytes);
    if (text === undefined) return { kind: 'binary' };
    const json = parseJson(text);
    return json.ok ? { kind: 'json', value: json.value } : { kind: 'text', text };
  }
  if (isJsonType(contentType)) {
    const text = decode(bytes, charset);
    const json = parseJson(text);
    if (json.ok) return { kind: 'json', value: json.value };
    messages.push(`The response says it is ${contentType} but is not valid JSON; it is shown as text.`);
    return { kind: 'text', text };
  }
  if (isTextType(contentType)) return { kind: 'text', text: decode(bytes, charset) };
  return { kind: 'binary' };
}

function mediaKindOf(contentType: string): MediaKind | undefined {
  if (contentType.startsWith('image/')) return 'image';
  if (contentType.startsWith('video/')) return 'video';
  if (contentType === 'application/pdf') return 'pdf';
  return undefined;
}

const isJsonType = (type: string) =>
  type === 'application/json' || type === 'text/json' || type.endsWith('+json');

const textTypes = new Set([
  'application/xml',
  'application/javascript',
  'application/x-www-form-urlencoded',
  'application/yaml',
  'application/x-yaml',
  'application/graphql',
  'application/x-ndjson',
  'application/csv',
]);
const isTextType = (type: string) => type.startsWith('text/') || type.endsWith('+xml') || textTypes.has(type);

function mediaTypeOf(header: string | undefined): string | undefined {
  const type = header?.split(';')[0]?.trim().toLowerCase();
  return type ? type : undefined;
}

function charsetOf(header: string | undefined): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(header ?? '')?.[1];
  return charset ?? 'utf-8';
}

function decode(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    // An unknown charset: UTF-8 is the best guess, and invalid bytes become U+FFFD, not an error.
    return new TextDecoder().decode(bytes);
  }
}

function decodeStrictUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

// ---------------------------------------------------------------- failure

function failureMessage(result: HttpCallResult, body: Body): string {
  const prefix = `The API answered HTTP ${result.status}`;
  switch (body.kind) {
    case 'json':
      return `${prefix}: ${excerpt(JSON.stringify(body.value))}`;
    case 'text':
      return body.text.trim() === '' ? `${prefix}.` : `${prefix}: ${excerpt(body.text)}`;
    case 'empty':
      return `${prefix} with an empty body.`;
    case 'media':
    case 'binary':
      return `${prefix} with ${result.body.length} bytes of ${result.headers['content-type'] ?? 'binary data'}.`;
  }
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > excerptLength ? `${flat.slice(0, excerptLength)}…` : flat;
}

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  // In chunks: spreading megabytes into one call would overflow the argument limit.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
