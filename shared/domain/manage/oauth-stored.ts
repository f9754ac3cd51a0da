/**
 * An OAuth connection as it is kept on a data source environment (decision 0041): the refresh
 * token only as ciphertext, beside who connected it, when, as whom and with which scopes.
 */
import type { DataSource } from '../model.ts';
import type { SecretValues } from '../secret-values.ts';
import { secretFieldContext } from '../secret-values.ts';

/** The stored connection lives beside the connection settings under this key. */
export const oauthField = 'oauth';
const refreshTokenContextField = 'oauth.refreshToken';

export interface OAuthTarget {
  projectId: string;
  dataSourceId: string;
  environmentId: string;
}

export interface StoredOAuthConnection {
  refreshTokenCiphertext: string;
  account?: string;
  connectedBy: { id: string; email: string };
  connectedAt: string;
  scopes: string[];
}

export const refreshTokenContext = (target: OAuthTarget) =>
  secretFieldContext(target.projectId, target.dataSourceId, target.environmentId, refreshTokenContextField);

/** The stored connection as callers see it: who connected, when, as whom, with which scopes. */
export function presentOAuthConnection(stored: unknown) {
  if (!stored || typeof stored !== 'object') return undefined;
  const { refreshTokenCiphertext: _secret, ...visible } = stored as StoredOAuthConnection;
  return visible;
}

/** The refresh token for a run, beside who it acts as. */
export async function openOAuthConnection(
  deps: { secrets: SecretValues },
  dataSource: DataSource,
  environmentId: string,
  stored: unknown,
) {
  if (!stored || typeof stored !== 'object') return undefined;
  const { refreshTokenCiphertext, ...visible } = stored as StoredOAuthConnection;
  const refreshToken = await deps.secrets.decrypt(
    refreshTokenCiphertext,
    refreshTokenContext({ projectId: dataSource.projectId, dataSourceId: dataSource.id, environmentId }),
  );
  return { ...visible, refreshToken };
}
