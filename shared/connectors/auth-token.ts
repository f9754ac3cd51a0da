/**
 * {{ authToken }}: the result of a data source's authentication action (spec 2.3, 2.5), cached per
 * data source environment for the action's cacheSeconds. Shared by the kinds that take one (HTTP
 * headers, gRPC metadata).
 */
import { DoguError } from '../domain/errors.ts';
import type { Action, DataSource, StatementResult } from '../domain/model.ts';

const defaultTokenCacheSeconds = 300;
const tokens = new Map<string, { token: string; expiresAt: number }>();

export interface AuthTokenInput {
  action: Pick<Action, 'id'>;
  dataSource: DataSource;
  environmentId: string;
  /** Runs the data source's authentication action and returns its results. */
  runAuthAction: (actionId: string) => Promise<StatementResult[]>;
}

/** The token, or undefined when the data source names no authentication action (or this is it). */
export async function authTokenFor(input: AuthTokenInput): Promise<string | undefined> {
  const auth = input.dataSource.authAction;
  // The authentication action itself runs without a token.
  if (!auth || auth.actionId === input.action.id) return undefined;
  const key = `${input.dataSource.projectId}/${input.dataSource.id}/${input.environmentId}`;
  const cached = tokens.get(key);
  if (cached && cached.expiresAt > Date.now()) return cached.token;

  const results = await input.runAuthAction(auth.actionId);
  const failed = results.find((r) => r.status === 'failed');
  if (failed) {
    throw new DoguError(
      'data_source_error',
      `The authentication action '${auth.actionId}' failed: ${failed.error?.message}`,
    );
  }
  const token = tokenIn(results[0], auth.tokenPath);
  if (typeof token !== 'string' || token === '') {
    throw new DoguError(
      'data_source_error',
      `The authentication action '${auth.actionId}' returned no token${auth.tokenPath ? ` at '${auth.tokenPath}'` : ''}.`,
    );
  }
  const seconds = auth.cacheSeconds ?? defaultTokenCacheSeconds;
  if (seconds > 0) tokens.set(key, { token, expiresAt: Date.now() + seconds * 1000 });
  return token;
}

/** The token is the result value (HTTP) or first row (SQL), at `tokenPath` when given. */
function tokenIn(
  result: (StatementResult & { value?: unknown }) | undefined,
  tokenPath: string | undefined,
): unknown {
  if (!result) return undefined;
  let value: unknown = 'value' in result ? result.value : result.rows[0];
  if (!tokenPath) {
    if (value && typeof value === 'object' && !('value' in result)) value = Object.values(value)[0];
    return value;
  }
  for (const part of tokenPath.split('.')) {
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  return value;
}
