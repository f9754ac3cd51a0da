/**
 * The views API the console uses (docs/views.md "API", served by the backend) and the one way a
 * view runs an action: the ordinary execution endpoint with the viewer's session, marked with the
 * view as its source. A review-gated action answers 202 with the review request it opened.
 */
import type {
  CodeViewDefinition,
  ViewComponent,
  ViewDefinition,
  ViewEvent,
  ViewInput,
  ViewQuery,
  ViewTableColumn,
  VisualViewDefinition,
} from '../../../../shared/domain/definitions/view.ts';
import { ApiError, api, pathOf } from '../../api/client.ts';
import { apiPaths } from '../../api/paths.ts';
import type { Execution, Parameter, ReviewRequested } from '../../api/types.ts';

export type {
  CodeViewDefinition,
  ViewComponent,
  ViewDefinition,
  ViewEvent,
  ViewInput,
  ViewQuery,
  ViewTableColumn,
  VisualViewDefinition,
};

export interface ViewSummary {
  id: string;
  name: string;
  description?: string;
  groupId?: string;
  kind?: 'visual' | 'code';
  version?: number;
  updatedAt?: string;
}

export interface ViewHead extends ViewInput {
  version: number;
  updatedAt?: string;
  compiled?: { code: string; compiler: string };
}

/** What an environment shows (GET /environments/{e}/views/{v}). */
export interface ResolvedView {
  view: { id: string; name: string; description?: string; groupId?: string };
  version: number;
  published: boolean;
  definition: ViewDefinition;
  compiled?: { code: string; compiler: string };
  /** The project's allowed hosts (decision 0155). */
  allowedHosts?: string[];
}

/** One saved version (GET /views/{v}/versions/{n}): the whole input of that save. */
export interface ViewVersion {
  version: number;
  definition: ViewInput;
  createdAt?: string;
  message?: string;
  author?: { email?: string };
}

export interface ViewVersions {
  latest: number;
  versions: { version: number; createdAt?: string; message?: string; author?: { email?: string } }[];
  publications: { environmentId: string; version: number }[];
}

export const viewPaths = {
  views: (projectId: string) => pathOf`/api/v1/projects/${projectId}/views`,
  view: (projectId: string, viewId: string) => pathOf`/api/v1/projects/${projectId}/views/${viewId}`,
  versions: (projectId: string, viewId: string) =>
    pathOf`/api/v1/projects/${projectId}/views/${viewId}/versions`,
  version: (projectId: string, viewId: string, version: number) =>
    pathOf`/api/v1/projects/${projectId}/views/${viewId}/versions/${String(version)}`,
  publication: (projectId: string, viewId: string, environmentId: string) =>
    pathOf`/api/v1/projects/${projectId}/views/${viewId}/publications/${environmentId}`,
  resolved: (projectId: string, environmentId: string, viewId: string) =>
    pathOf`/api/v1/projects/${projectId}/environments/${environmentId}/views/${viewId}`,
};

export type ActionOutcome =
  | { kind: 'execution'; execution: Execution }
  | { kind: 'review'; review: ReviewRequested };

/**
 * Runs an action as the viewer. A failed run (HTTP 422 with the execution, or an execution whose
 * status is not `succeeded`) throws, so callers show the error where the view called it.
 */
export async function runViewAction(
  where: { projectId: string; environmentId: string; viewId: string },
  actionId: string,
  args: Record<string, unknown>,
  options: { confirm?: boolean } = {},
): Promise<ActionOutcome> {
  const path = apiPaths.executions(where.projectId, where.environmentId, actionId);
  // A draft that was never saved has no view to name as the source (the server checks it exists); its
  // preview runs as a console run, so a data-changing action needs the same confirmation.
  const response = await api.postWithResponse<Execution | ReviewRequested>(path, {
    arguments: args,
    ...(where.viewId ? { source: { viewId: where.viewId } } : { via: 'console' }),
    ...(options.confirm ? { confirm: true } : {}),
  });
  if (response.status === 202 && 'reviewRequest' in response.body) {
    return { kind: 'review', review: response.body };
  }
  const execution = response.body as Execution;
  if (execution.status !== 'succeeded') throw new ExecutionFailed(execution);
  return { kind: 'execution', execution };
}

/** An execution that ran and failed: its first error message is what the view shows. */
export class ExecutionFailed extends Error {
  readonly execution: Execution;
  constructor(execution: Execution) {
    const message =
      execution.error?.message ??
      execution.results.find((r) => r.error)?.error?.message ??
      `The action ended with status ${execution.status}.`;
    super(message);
    this.name = 'ExecutionFailed';
    this.execution = execution;
  }
}

/** The rows and the value of an execution, as expressions see them (`queries.<id>.rows/result`). */
export function resultOf(execution: Execution): { rows: Record<string, unknown>[]; result: unknown } {
  const succeeded = execution.results.filter((r) => r.status === 'succeeded');
  const first = succeeded[0];
  const rows = first?.rows ?? [];
  if (execution.results.length <= 1) {
    return { rows, result: first && first.value !== undefined ? first.value : rows };
  }
  return { rows, result: execution.results.map((r) => (r.value !== undefined ? r.value : r.rows)) };
}

/** The parameters of an action as the environment runs it (for forms built from an action). */
export async function loadActionParameters(projectId: string, actionId: string): Promise<Parameter[]> {
  const action = await api.get<{ parameters: Parameter[] }>(apiPaths.action(projectId, actionId));
  return action.parameters;
}

export { ApiError };
