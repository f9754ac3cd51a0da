/**
 * Reads a multipart/form-data body of an API Gateway event with busboy. Both runtimes hand the
 * body over whole and base64-encoded (API Gateway does so for multipart; local/api-gateway-event.ts
 * the same), so parsing is over a buffer in memory. A file part over `maxFileBytes` is cut there
 * and reported as truncated: the caller answers 413.
 */

import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import busboy from 'busboy';
import { badRequest, DoguError } from '../domain/errors.ts';

export interface MultipartFile {
  field: string;
  filename: string;
  bytes: Uint8Array;
  /** The part was longer than the limit; `bytes` holds only its start. */
  truncated: boolean;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: MultipartFile[];
}

export async function multipartBody(
  event: APIGatewayProxyEventV2,
  limits: { maxFileBytes: number },
): Promise<MultipartBody> {
  const contentType = event.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new DoguError(
      'unsupported_media_type',
      contentType
        ? `Content-Type '${contentType.split(';')[0]}' is not supported; send multipart/form-data.`
        : 'Send the body as multipart/form-data.',
    );
  }
  const body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { files: 1, fields: 10, parts: 11, fieldSize: 64 * 1024, fileSize: limits.maxFileBytes },
      });
    } catch {
      reject(badRequest('The multipart/form-data body has no boundary.'));
      return;
    }
    const result: MultipartBody = { fields: {}, files: [] };
    let tooMany = false;
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) tooMany = true;
      result.fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        result.files.push({
          field,
          filename: info.filename ?? '',
          bytes: new Uint8Array(Buffer.concat(chunks)),
          truncated: (stream as unknown as { truncated?: boolean }).truncated === true,
        });
      });
    });
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const)
      parser.on(limit, () => (tooMany = true));
    parser.on('error', () => reject(badRequest('The multipart/form-data body is malformed.')));
    parser.on('close', () => {
      if (tooMany) reject(badRequest('The multipart/form-data body has too many or too large parts.'));
      else resolve(result);
    });
    parser.end(body);
  });
}
