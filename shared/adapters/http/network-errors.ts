/**
 * Why a request failed, in words for the action's author. Built from the
 * error code only: Node's messages can quote request details, and a message
 * here must never carry headers or bodies (they hold credentials).
 */
const reasons: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed while sending',
  ENOTFOUND: 'its host name could not be resolved',
  EAI_AGAIN: 'its host name could not be resolved (temporary DNS failure)',
  EAI_FAIL: 'its host name could not be resolved',
  EAI_NONAME: 'its host name could not be resolved',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ETIMEDOUT: 'the connection timed out',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is not valid for this host name',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  CERT_NOT_YET_VALID: 'its TLS certificate is not valid yet',
  ERR_STREAM_PREMATURE_CLOSE: 'the connection closed before the response was complete',
};

/** Certificates signed by a CA Node does not know: a private CA can be added. */
const untrustedCertificateCodes = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

export function describeNetworkError(error: unknown): string {
  const code = codeOf(error);
  if (code === undefined) return 'the request failed';
  const known = reasons[code];
  if (known) return known;
  if (untrustedCertificateCodes.has(code)) {
    return `its TLS certificate is not trusted (${code}); a private CA can be configured with DOGU_HTTP_EXTRA_CA_FILE`;
  }
  if (code === 'EPROTO' || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) {
    return `the TLS handshake failed (${code})`;
  }
  if (code.startsWith('HPE_')) return `it answered with an invalid HTTP response (${code})`;
  return `the request failed (${code})`;
}

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
