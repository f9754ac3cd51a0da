/**
 * Fetches a small JSON document over HTTPS only, for OIDC discovery and JWKS.
 * Written on node:https rather than fetch so that an extra CA (a private IdP,
 * the tests' IdP) can be trusted next to the system roots, redirects are never
 * followed and the size and time of a response are bounded.
 */
import https from 'node:https';
import { rootCertificates } from 'node:tls';

export interface HttpsJsonOptions {
  /** PEM certificates trusted in addition to Node's root store. */
  extraCa?: string;
  timeoutMs: number;
  maxBytes: number;
}

/** The IdP could not be reached or failed on its side: worth retrying later (503). */
export class IdpUnreachableError extends Error {
  override name = 'IdpUnreachableError';
}

/** The IdP answered, but not with what OIDC requires: the caller's token cannot be accepted (invalid_grant). */
export class IdpMisconfiguredError extends Error {
  override name = 'IdpMisconfiguredError';
}

export function fetchHttpsJson(url: string, options: HttpsJsonOptions): Promise<unknown> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return Promise.reject(new IdpMisconfiguredError(`not a URL: ${url}`));
  }
  // Keys fetched over plain HTTP could be replaced by anyone on the path.
  if (parsed.protocol !== 'https:') return Promise.reject(new IdpMisconfiguredError(`not HTTPS: ${url}`));
  const ca = options.extraCa ? [...rootCertificates, options.extraCa] : undefined;
  return new Promise((resolve, reject) => {
    const request = https.get(
      parsed,
      { ...(ca ? { ca } : {}), headers: { accept: 'application/json' }, timeout: options.timeoutMs },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 500 || status === 429) {
          response.resume();
          reject(new IdpUnreachableError(`HTTP ${status} from ${url}`));
          return;
        }
        if (status !== 200) {
          response.resume();
          reject(new IdpMisconfiguredError(`HTTP ${status} from ${url}`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            request.destroy();
            reject(new IdpMisconfiguredError(`response of ${url} exceeds ${options.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch {
            reject(new IdpMisconfiguredError(`response of ${url} is not JSON`));
          }
        });
        response.on('error', (error) => reject(new IdpUnreachableError(error.message)));
      },
    );
    request.on('timeout', () => request.destroy(new IdpUnreachableError(`timeout fetching ${url}`)));
    request.on('error', (error: Error & { code?: string }) => {
      if (error instanceof IdpUnreachableError) reject(error);
      // An untrusted or wrong certificate will not heal by retrying: the IdP is not acceptable.
      else if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/.test(error.code ?? ''))
        reject(new IdpMisconfiguredError(`TLS of ${url}: ${error.code}`));
      else reject(new IdpUnreachableError(error.message));
    });
  });
}
