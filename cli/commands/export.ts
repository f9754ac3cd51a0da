/** `dogu export [--project P] [-o FILE]`: writes a project as a config file (stdout without -o). */
import { writeFile } from 'node:fs/promises';
import { exportConfig } from '../config/export.ts';
import { managementApi } from '../config/management-api.ts';
import { readProjectState } from '../config/project-state.ts';
import { accessToken } from './print-access-token.ts';

export async function exportProject(options: {
  baseUrl: string;
  project: string;
  output?: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}): Promise<number> {
  const { token } = await accessToken();
  const api = managementApi({ baseUrl: options.baseUrl, token, projectId: options.project });
  // Environments are those the data sources name: the API cannot list a project's environments yet.
  const state = await readProjectState(api, []);
  const text = exportConfig(state, {
    projectId: options.project,
    source: new URL(options.baseUrl).origin,
    now: new Date(),
  });
  if (options.output === undefined) {
    options.stdout(text);
    return 0;
  }
  await writeFile(options.output, text);
  const secrets = [...state.secrets.values()].reduce((n, names) => n + names.size, 0);
  options.stderr(
    `Wrote ${options.output}: ${state.dataSources.size} data sources, ${state.actions.size} actions, ` +
      `${[...state.variables.values()].reduce((n, names) => n + names.size, 0)} variables, ${secrets} secrets, ` +
      `${state.userGroups.size} user groups, ${state.actionGroups.size} action groups, ${state.views.size} views ` +
      '(secret and password values are never exported: set the variables named by fromEnv/passwordFromEnv to change them).\n',
  );
  return 0;
}
