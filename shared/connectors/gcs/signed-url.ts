/**
 * Cloud Storage V4 signed URLs (GOOG4-RSA-SHA256): the canonical request, the string to sign,
 * and the signature of the service account (its key, or IAM Credentials signBlob).
 */
import { createHash } from 'node:crypto';

/** RFC 3986: everything but unreserved characters is percent-encoded. */
export const encodeRfc3986 = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The object's path: each segment encoded, `/` kept (so `?`, `#` and `%` never end the key). */
export const encodeObjectPath = (key: string) => key.split('/').map(encodeRfc3986).join('/');

export interface SignedUrlRequest {
  endpoint: string;
  bucket: string;
  objectKey: string;
  method: 'GET' | 'PUT';
  seconds: number;
  email: string;
  now: Date;
  sign(text: string): Promise<Uint8Array>;
}

export async function signedGcsUrl(request: SignedUrlRequest): Promise<string> {
  const endpoint = new URL(request.endpoint);
  const timestamp = request.now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const scope = `${timestamp.slice(0, 8)}/auto/storage/goog4_request`;
  const path = `${endpoint.pathname.replace(/\/$/, '')}/${request.bucket}/${encodeObjectPath(request.objectKey)}`;
  const query: Record<string, string> = {
    'X-Goog-Algorithm': 'GOOG4-RSA-SHA256',
    'X-Goog-Credential': `${request.email}/${scope}`,
    'X-Goog-Date': timestamp,
    'X-Goog-Expires': String(request.seconds),
    'X-Goog-SignedHeaders': 'host',
  };
  const canonicalQuery = Object.keys(query)
    .sort()
    .map((name) => `${encodeRfc3986(name)}=${encodeRfc3986(query[name]!)}`)
    .join('&');
  const canonicalRequest = [
    request.method,
    path,
    canonicalQuery,
    `host:${endpoint.host}`,
    '',
    'host',
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const stringToSign = [
    'GOOG4-RSA-SHA256',
    timestamp,
    scope,
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n');
  const signature = Buffer.from(await request.sign(stringToSign)).toString('hex');
  return `${endpoint.protocol}//${endpoint.host}${path}?${canonicalQuery}&X-Goog-Signature=${signature}`;
}
