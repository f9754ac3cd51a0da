/**
 * The environment variable names a config file already gives its write-only values, so that an
 * export keeps them (decision 0140). The service stores only the values, never where apply read
 * them from; the file the user keeps in their repository is where those names live.
 *
 * The file is read leniently (YAML only, no schema): an older or half-edited file still lends the
 * names it has, and a reference that is not there simply gets the derived name.
 */
import { parse } from 'yaml';

/** Where a write-only value belongs → the environment variable the file names for it. */
export type ReferenceNames = ReadonlyMap<string, string>;

const place = (...parts: string[]) => JSON.stringify(parts);
/** A secret of an environment. */
export const secretPlace = (environmentId: string, name: string) => place('secret', environmentId, name);
/** A data source's write-only connection field (`password`, …) in one environment. */
export const connectionPlace = (dataSourceId: string, environmentId: string, field: string) =>
  place('connection', dataSourceId, environmentId, field);
/** A notification target's write-only field (`signingSecret`, `url`, `smtp.password`), by target name. */
export const targetPlace = (targetName: string, field: string) => place('target', targetName, field);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isName = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(value);

/** A derived variable name's parts: upper case, other characters as `_`. */
export const envName = (...parts: string[]) =>
  parts.map((p) => p.toUpperCase().replace(/[^A-Z0-9]+/g, '_')).join('_');

/** Throws when the text is not YAML (the caller says which file). */
export function referenceNamesOf(text: string): Map<string, string> {
  const names = new Map<string, string>();
  const file: unknown = parse(text);
  if (!isRecord(file)) return names;
  if (isRecord(file.secrets))
    for (const [environmentId, secrets] of Object.entries(file.secrets))
      if (isRecord(secrets))
        for (const [name, reference] of Object.entries(secrets))
          if (isRecord(reference) && isName(reference.fromEnv))
            names.set(secretPlace(environmentId, name), reference.fromEnv);
  for (const dataSource of Array.isArray(file.dataSources) ? file.dataSources : []) {
    if (!isRecord(dataSource) || typeof dataSource.id !== 'string' || !isRecord(dataSource.environments))
      continue;
    for (const [environmentId, connection] of Object.entries(dataSource.environments))
      if (isRecord(connection)) {
        for (const [key, value] of Object.entries(connection))
          if (key.endsWith('FromEnv') && isName(value))
            names.set(connectionPlace(dataSource.id, environmentId, key.slice(0, -'FromEnv'.length)), value);
      }
  }
  const targets = isRecord(file.notifications) ? file.notifications.targets : undefined;
  for (const target of Array.isArray(targets) ? targets : []) {
    if (!isRecord(target) || typeof target.name !== 'string') continue;
    if (isName(target.signingSecretFromEnv))
      names.set(targetPlace(target.name, 'signingSecret'), target.signingSecretFromEnv);
    if (isName(target.urlFromEnv)) names.set(targetPlace(target.name, 'url'), target.urlFromEnv);
    if (isRecord(target.smtp) && isName(target.smtp.passwordFromEnv))
      names.set(targetPlace(target.name, 'smtp.password'), target.smtp.passwordFromEnv);
  }
  return names;
}
