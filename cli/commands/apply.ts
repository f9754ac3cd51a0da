/**
 * `dogu apply -f FILE [--dry-run] [--project P]`: makes a project match a config file. Prints the
 * plan as Markdown on stdout (a dry run stops there) and progress and errors on stderr.
 */

import { ApplyError, applyPlan, cannotApplyReason } from '../config/apply.ts';
import { appliedLine, applyFailureText } from '../config/apply-report.ts';
import { ConfigFileError, loadConfigFile } from '../config/load.ts';
import { managementApi } from '../config/management-api.ts';
import { buildPlan, type Environment, environmentsNamedIn, type Plan } from '../config/plan.ts';
import { readProjectState } from '../config/project-state.ts';
import { renderPlan } from '../config/render-plan.ts';
import { accessToken } from './print-access-token.ts';

export interface ApplyOptions {
  baseUrl: string;
  file: string;
  /** Overrides the file's `project`, e.g. to apply one file to a second project. */
  project?: string;
  dryRun: boolean;
  env: Environment;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Exit code: 0 when applied (or, for a dry run, when the plan could be made); 1 on any error. */
export async function apply(options: ApplyOptions): Promise<number> {
  const { stdout, stderr } = options;
  let loaded: Awaited<ReturnType<typeof loadConfigFile>>;
  try {
    loaded = await loadConfigFile(options.file);
  } catch (error) {
    if (!(error instanceof ConfigFileError)) throw error;
    stderr(`dogu: ${error.message}\n`);
    return 1;
  }
  const { config, placeOf } = loaded;
  const projectId = options.project ?? config.project;
  if (projectId !== config.project)
    stderr(`Applying to project '${projectId}' (--project); the file says '${config.project}'.\n`);

  const { token } = await accessToken();
  const api = managementApi({ baseUrl: options.baseUrl, token, projectId });
  const state = await readProjectState(api, environmentsNamedIn(config));
  const plan = buildPlan(config, state, options.env, projectId);
  stdout(renderPlan(plan, { dryRun: options.dryRun }));

  for (const problem of plan.problems)
    stderr(`dogu: ${placeOf(problem.path, problem.at, problem.within)}: ${problem.message}\n`);
  if (plan.problems.length > 0) return 1;
  const reason = cannotApplyReason(plan);
  if (options.dryRun) {
    // The plan is the dry run's answer (exit 0), but what would stop apply is said where CI shows it.
    if (reason) stderr(`dogu: apply would stop here: ${reason}.\n`);
    return 0;
  }
  if (reason) {
    stderr(`dogu: nothing was applied: ${reason}.\n`);
    return 1;
  }
  if (plan.steps.length === 0) {
    stderr(`Nothing to apply: project '${projectId}' already matches ${options.file}.\n`);
    return 0;
  }
  try {
    await applyPlan(api, plan, (applied) => stderr(`${appliedLine(applied)}\n`));
  } catch (error) {
    if (!(error instanceof ApplyError)) throw error;
    stderr(`dogu: ${applyFailureText(error, placeOf)}\n`);
    return 1;
  }
  stderr(`Applied ${changedResources(plan)} to project '${projectId}'.\n`);
  return 0;
}

function changedResources(plan: Plan): string {
  const count = new Set(plan.steps.map((s) => s.resource)).size;
  return count === 1 ? '1 change' : `${count} changes`;
}
