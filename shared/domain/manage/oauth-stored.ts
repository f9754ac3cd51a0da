/**
 * An OAuth connection as it is kept on a data source environment (decision 0041): the refresh
 * token only as ciphertext, beside who connected it, when, as whom and with which scopes.
 */
import { DoguError } from '../errors.ts';
import type { DataSource } from '../model.ts';
import type { Store } from '../ports.ts';
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
  /** Set when the provider refused the refresh token (revoked, expired): the user must connect again. */
  reconnectNeeded?: { since: string; reason: string };
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

/** Whether an error says the provider refused the stored grant (OAuth `invalid_grant`). */
export const isLostGrant = (error: unknown) =>
  error instanceof DoguError && error.extra?.oauthError === 'invalid_grant';

/**
 * Marks the environment's connection "reconnect needed" so the console shows it. Only the grant
 * that failed is marked: a connection made again meanwhile (a new ciphertext) is left alone.
 */
export async function markReconnectNeeded(
  store: Pick<Store, 'getDataSource' | 'putDataSource'>,
  failed: DataSource,
  environmentId: string,
  at: Date,
): Promise<void> {
  const failedGrant = (failed.environments[environmentId]?.[oauthField] as StoredOAuthConnection | undefined)
    ?.refreshTokenCiphertext;
  const dataSource = await store.getDataSource(failed.projectId, failed.id);
  const environment = dataSource?.environments[environmentId];
  const stored = environment?.[oauthField] as StoredOAuthConnection | undefined;
  if (!dataSource || !stored || stored.refreshTokenCiphertext !== failedGrant || stored.reconnectNeeded)
    return;
  const marked: StoredOAuthConnection = {
    ...stored,
    reconnectNeeded: {
      since: at.toISOString(),
      reason: 'The provider refused the stored grant (revoked or expired).',
    },
  };
  await store.putDataSource({
    ...dataSource,
    environments: { ...dataSource.environments, [environmentId]: { ...environment, [oauthField]: marked } },
  });
}
