/** A Google service-account JSON key: the parts Dogu uses, read the same way by every Google kind. */

export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri?: string;
}

/** Parses the key text; undefined when it is not a service-account key (never says why with its content). */
export function parseServiceAccountKey(text: string): ServiceAccountKey | undefined {
  try {
    const key = JSON.parse(text) as Record<string, unknown>;
    if (key.type !== undefined && key.type !== 'service_account') return undefined;
    if (typeof key.client_email !== 'string' || typeof key.private_key !== 'string') return undefined;
    if (!key.private_key.includes('PRIVATE KEY')) return undefined;
    if (
      key.token_uri !== undefined &&
      (typeof key.token_uri !== 'string' || !/^https?:\/\//.test(key.token_uri))
    )
      return undefined;
    return {
      client_email: key.client_email,
      private_key: key.private_key,
      ...(typeof key.private_key_id === 'string' ? { private_key_id: key.private_key_id } : {}),
      ...(typeof key.token_uri === 'string' ? { token_uri: key.token_uri } : {}),
    };
  } catch {
    return undefined;
  }
}
