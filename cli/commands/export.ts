/**
 * `dogu export [--project P] [-o FILE] [--names-from FILE]`: writes a project as a config file
 * (stdout without -o). The environment variable names of write-only values are taken from
 * `--names-from`, else from the `-o` file when it exists (decision 0140), else derived.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { exportProjectConfig } from '../config/export.ts';
import { referenceNamesOf } from '../config/export-names.ts';
import { managementApi } from '../config/management-api.ts';
import { readProjectState } from '../config/project-state.ts';
import { accessToken } from './print-access-token.ts';

export async function exportProject(options: {
  baseUrl: string;
  project: string;
  output?: string;
  namesFrom?: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}): Promise<number> {
  // Read before anything else: a --names-from file that cannot be used stops the export at once.
  const names = await namesOf(options);
  const { token } = await accessToken();
  const api = managementApi({ baseUrl: options.baseUrl, token, projectId: options.project });
  // Environments are those the data sources name: the API cannot list a project's environments yet.
  const state = await readProjectState(api, []);
  const { text, keptNames } = exportProjectConfig(state, {
    projectId: options.project,
    source: new URL(options.baseUrl).origin,
    now: new Date(),
    ...(names ? { names: names.names } : {}),
  });
  const kept = names
    ? `Kept ${keptNames} environment variable ${keptNames === 1 ? 'name' : 'names'} of ${names.file}.\n`
    : '';
  if (options.output === undefined) {
    options.stdout(text);
    options.stderr(kept);
    return 0;
  }
  await writeFile(options.output, text);
  const secrets = [...state.secrets.values()].reduce((n, names) => n + names.size, 0);
  options.stderr(
    `Wrote ${options.output}: ${state.dataSources.size} data sources, ${state.actions.size} actions, ` +
      `${[...state.variables.values()].reduce((n, names) => n + names.size, 0)} variables, ${secrets} secrets, ` +
      `${state.userGroups.size} user groups, ${state.actionGroups.size} action groups, ${state.views.size} views ` +
      '(secret and password values are never exported: set the variables named by fromEnv/…FromEnv to change them).\n' +
      kept,
  );
  return 0;
}

/** The names a file gives write-only values: `--names-from` (must be readable), or the `-o` file if there is one. */
async function namesOf(options: {
  output?: string;
  namesFrom?: string;
  stderr: (text: string) => void;
}): Promise<{ file: string; names: Map<string, string> } | undefined> {
  const file = options.namesFrom ?? options.output;
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    // An -o file that does not exist yet is the usual first export.
    if (options.namesFrom === undefined && (error as NodeJS.ErrnoException).code === 'ENOENT')
      return undefined;
    throw new Error(`--names-from ${file} could not be read: ${(error as Error).message}`);
  }
  try {
    return { file, names: referenceNamesOf(text) };
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    if (options.namesFrom !== undefined) throw new Error(`--names-from ${file} is not YAML: ${reason}`);
    options.stderr(
      `dogu: ${file} is not YAML (${reason}): its variable names are not kept; it is overwritten.\n`,
    );
    return undefined;
  }
}
