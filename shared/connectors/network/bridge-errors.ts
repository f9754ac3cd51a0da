/** Dogu → bridge failures in words a user can act on (no certificate or token text). */
export function describeBridgeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused (is the bridge running?)';
    case 'ENOTFOUND':
      return 'host not found';
    case 'ETIMEDOUT':
      return 'no answer in time';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'CERT_SIGNATURE_FAILURE':
      return "its TLS certificate is not the certificate or CA pinned for it in the project's settings";
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return "its TLS certificate does not name the bridge's address";
    case 'CERT_HAS_EXPIRED':
      return 'its TLS certificate has expired';
    default:
      return error.code ?? error.message;
  }
}
