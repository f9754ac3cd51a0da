/**
 * A long job on AWS (decision 0075): the async-execution state machine starts a CodeBuild build for
 * a job whose limit is above Lambda's budget; the build runs this module (bundled like a Lambda
 * handler, `node index.mjs`) with the job in environment variables the state machine sets. It runs
 * the same domain code as run-job, with the build's limit (DOGU_MAX_JOB_EXECUTION_MS, 30 minutes).
 */
import { pathToFileURL } from 'node:url';
import { logger } from '../shared/commons/logger.ts';
import { runQueuedExecution } from '../shared/domain/scheduling/async-executions.ts';
import { actionEngines } from '../shared/runtime/groups/action-engines.ts';
import { executionPayloads } from '../shared/runtime/groups/execution-payloads.ts';
import { fileStorage } from '../shared/runtime/groups/file-storage.ts';
import { notifications as notificationCenter } from '../shared/runtime/groups/notifications.ts';
import { ownIdp } from '../shared/runtime/groups/own-idp.ts';
import { scheduling } from '../shared/runtime/groups/scheduling.ts';
import { scriptSandbox } from '../shared/runtime/groups/script-sandbox.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose, getServices, schedulingDeps } from '../shared/runtime/services.ts';

/** The same groups as run-job, so both get the same role (infra/function-needs.ts reads these imports). */
const composition = compose(
  secretValues,
  actionEngines,
  ownIdp,
  scriptSandbox,
  scheduling,
  notificationCenter,
  fileStorage,
  executionPayloads,
);

/** The variables the state machine overrides per build (infra/scheduling.ts). */
export const longJobEnv = {
  projectId: 'DOGU_JOB_PROJECT_ID',
  environmentId: 'DOGU_JOB_ENVIRONMENT_ID',
  executionId: 'DOGU_JOB_EXECUTION_ID',
} as const;

const idPattern = /^[A-Za-z0-9_-]{1,100}$/;

/** The job a build runs, from its environment; a missing or malformed value fails the build. */
export function longJobFrom(env: NodeJS.ProcessEnv): { projectId: string; executionId: string } {
  const value = (name: string) => {
    const text = env[name];
    if (!text || !idPattern.test(text))
      throw new Error(`${name} must name the job (letters, digits, '-', '_').`);
    return text;
  };
  return { projectId: value(longJobEnv.projectId), executionId: value(longJobEnv.executionId) };
}

/** The services a job needs (as run-job composes them; a test passes the embedded runtime's). */
type JobServices = Parameters<typeof schedulingDeps>[0];

export async function runLongJob(env: NodeJS.ProcessEnv, services?: Promise<JobServices>): Promise<void> {
  const job = longJobFrom(env);
  logger.appendKeys({ projectId: job.projectId, executionId: job.executionId });
  // The outcome (succeeded, failed, timed_out) is recorded by the domain; only a crash fails the
  // build, which the state machine's Catch then records.
  await runQueuedExecution(schedulingDeps(await (services ?? getServices(composition))), job);
}

// Run when the build starts the bundle (`node index.mjs`), not when a test imports the module.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runLongJob(process.env).then(
    () => process.exit(0),
    (error: unknown) => {
      logger.error('The long job failed', error as Error);
      process.exit(1);
    },
  );
}
