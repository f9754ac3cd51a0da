/** API paths the core screens use; other screens build theirs with `pathOf`. */
import { pathOf } from './client.ts';

export const apiPaths = {
  session: '/auth/session',
  logout: '/auth/logout',
  projects: '/api/v1/projects',
  environments: (projectId: string) => pathOf`/api/v1/projects/${projectId}/environments`,
  actions: (projectId: string) => pathOf`/api/v1/projects/${projectId}/actions`,
  action: (projectId: string, actionId: string) => pathOf`/api/v1/projects/${projectId}/actions/${actionId}`,
  actionVersions: (projectId: string, actionId: string) =>
    pathOf`/api/v1/projects/${projectId}/actions/${actionId}/versions`,
  actionGroups: (projectId: string) => pathOf`/api/v1/projects/${projectId}/action-groups`,
  masterData: (projectId: string) => pathOf`/api/v1/projects/${projectId}/master-data`,
  executions: (projectId: string, environmentId: string, actionId: string) =>
    pathOf`/public/v1/projects/${projectId}/environments/${environmentId}/actions/${actionId}/executions`,
};
