/**
 * Access tokens for a service account (RFC 7523 JWT bearer grant, as Google's libraries do it):
 * a JWT signed with the key, exchanged at the key's token_uri, kept until shortly before expiry.
 */
import { importPKCS8, SignJWT } from 'jose';
import { DoguError } from '../../domain/errors.ts';
import type { HttpClient } from '../../domain/ports.ts';
import type { ServiceAccountKey } from './definition.ts';

export const bigQueryScope = 'https://www.googleapis.com/auth/bigquery';

interface CachedToken {
  token: string;
  expiresAt: number;
}

export class GoogleTokens {
  private readonly cache = new Map<string, Promise<CachedToken>>();

  /** `scope`: what the token is for (BigQuery by default; the document kind asks for Datastore). */
  constructor(
    private readonly http: HttpClient,
    private readonly scope: string = bigQueryScope,
  ) {}

  async token(key: ServiceAccountKey, signal: AbortSignal): Promise<string> {
    const cacheKey = `${key.client_email}\n${key.private_key_id ?? ''}\n${key.token_uri}\n${key.private_key.length}\n${this.scope}`;
    const cached = this.cache.get(cacheKey);
    if (cached) {
      const token = await cached.catch(() => undefined);
      if (token && token.expiresAt - 60_000 > Date.now()) return token.token;
      this.cache.delete(cacheKey);
    }
    const fresh = exchange(this.http, key, this.scope, signal);
    this.cache.set(cacheKey, fresh);
    fresh.catch(() => this.cache.delete(cacheKey));
    return (await fresh).token;
  }
}

async function exchange(
  http: HttpClient,
  key: ServiceAccountKey,
  scope: string,
  signal: AbortSignal,
): Promise<CachedToken> {
  let privateKey: Awaited<ReturnType<typeof importPKCS8>>;
  try {
    privateKey = await importPKCS8(key.private_key, 'RS256');
  } catch {
    throw new DoguError(
      'data_source_error',
      'The service account key has no usable private key (PKCS #8, RSA).',
    );
  }
  const now = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({ scope })
    .setProtectedHeader({
      alg: 'RS256',
      typ: 'JWT',
      ...(key.private_key_id ? { kid: key.private_key_id } : {}),
    })
    .setIssuer(key.client_email)
    .setAudience(key.token_uri)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(privateKey);
  const response = await http.send(
    {
      method: 'POST',
      url: key.token_uri,
      headers: [['content-type', 'application/x-www-form-urlencoded']],
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion,
      }).toString(),
    },
    { signal, timeoutMs: 30_000, maxBodyBytes: 1024 * 1024 },
  );
  let body: { access_token?: string; expires_in?: number; error?: string; error_description?: string } = {};
  try {
    body = JSON.parse(new TextDecoder().decode(response.body));
  } catch {
    // Not JSON: the status says enough.
  }
  if (response.status >= 400 || !body.access_token) {
    const why = [body.error, body.error_description].filter(Boolean).join(': ') || `HTTP ${response.status}`;
    throw new DoguError(
      'data_source_error',
      `Google refused the service account key (${why}): check that the key is current and the account exists.`,
    );
  }
  return { token: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000 };
}
