/** Write-only values come from environment variables of the machine that runs apply. */
import type { Path } from './path.ts';
import type { Environment, WriteOnlyValue } from './plan-types.ts';

/** An empty variable counts as not set: CI systems often pass a missing secret as "". */
export function envValue(env: Environment, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** Unset, a stored value is kept; with nothing stored, apply cannot go on. */
export function writeOnlyValue(
  path: Path,
  envVar: string,
  value: string | undefined,
  stored: boolean,
): WriteOnlyValue {
  return { path, envVar, status: value !== undefined ? 'set' : stored ? 'kept' : 'missing' };
}
