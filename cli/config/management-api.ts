/** The management API calls config-as-code needs: list everything of a project, read one, put (or post) one. */
import { ApiError, unreachable } from '../api-client.ts';

export interface Problem {
  code?: string;
  detail?: string;
  title?: string;
  errors?: { pointer: string; detail: string }[];
}

/** An API error with its Problem Details kept whole, so field errors can be mapped onto the file. */
export class ProblemError extends ApiError {
  constructor(
    status: number,
    readonly problem: Problem | undefined,
    fallback: string,
  ) {
    super(status, `${status} ${problem?.detail ?? problem?.title ?? fallback}`);
    this.name = 'ProblemError';
  }
}

/** As GET returns them: the input fields plus server-only ones (projectId, version, timestamps, hasPassword). */
export type StoredResource = Record<string, unknown> & { id: string };
export interface StoredAction extends StoredResource {
  version: number;
}
export interface StoredSecret {
  name: string;
  updatedAt: string;
}
/** As `GET /members` lists them: direct members and principals in the project's user groups. */
export interface StoredMember {
  principalId: string;
  kind: 'user' | 'service_account';
  email?: string;
  /** The direct role; absent for a principal that belongs only through user groups. */
  role?: string;
}
export interface StoredGroup extends StoredResource {
  version: number;
}
/** As `GET /service-accounts` lists them: with the account's direct role, if it has one. */
export interface StoredServiceAccount extends StoredResource {
  name: string;
  email: string;
  description?: string;
  disabled?: boolean;
  role?: string;
  updatedAt: string;
}
export interface StoredTrustPolicy extends StoredResource {
  issuer: string;
  audience: string;
  boundClaims: { key: string; pattern: string }[];
  updatedAt: string;
}
/** As `GET …/environments/{env}/cron-jobs` lists them (the view's planned times are not needed). */
export interface StoredCronJob extends StoredResource {
  environmentId: string;
  name: string;
  schedule: unknown;
  timeZone: string;
  actionId: string;
  arguments: Record<string, unknown>;
  executor: { kind: 'user' | 'service_account'; id: string; email: string };
  state: 'running' | 'stopped';
  overlap: 'allow' | 'skip';
  version: number;
}
/** A notification target as `GET …/notifications` lists it: secrets only as whether one is set. */
export interface StoredNotificationTarget {
  id: string;
  name: string;
  kind: 'webhook' | 'slack' | 'email';
  url?: string;
  urlHost?: string;
  hasSecret: boolean;
  to?: string[];
  from?: string;
  smtp?: { host: string; port: number; secure: boolean; username?: string; hasPassword: boolean };
  updatedAt: string;
}
export interface StoredNotificationRule {
  id: string;
  subject: { kind: 'action' | 'cron_job' | 'batch'; id: string };
  events: string[];
  targetIds: string[];
  updatedAt: string;
}
/** `GET …/notifications`: the project's targets, rules and network policy. */
export interface StoredNotifications {
  allowPrivateNetworks: boolean;
  targets: StoredNotificationTarget[];
  rules: StoredNotificationRule[];
}

/** `GET …/actions/{id}/versions`, the part apply needs. */
export interface StoredVersions {
  latest: number;
  publications: { environmentId: string; version: number }[];
}

export interface ManagementApi {
  projectId: string;
  listDataSources(): Promise<StoredResource[]>;
  listActions(): Promise<StoredAction[]>;
  listMasterData(): Promise<StoredResource[]>;
  listVariables(environmentId: string): Promise<{ name: string; value: string }[]>;
  listSecrets(environmentId: string): Promise<StoredSecret[]>;
  listMembers(): Promise<StoredMember[]>;
  listUserGroups(): Promise<StoredGroup[]>;
  listActionGroups(): Promise<StoredGroup[]>;
  /** Summaries (no definitions): read each with `get(viewPath(id))`. */
  listViews(): Promise<StoredResource[]>;
  listServiceAccounts(): Promise<StoredServiceAccount[]>;
  listTrustPolicies(serviceAccountId: string): Promise<StoredTrustPolicy[]>;
  listCronJobs(environmentId: string): Promise<StoredCronJob[]>;
  /** The project's environments with whether each is protected (only published versions run there). */
  listEnvironments(): Promise<{ id: string; protected?: boolean }[]>;
  notifications(): Promise<StoredNotifications>;
  /** The view's latest version and what is published where. */
  viewVersions(viewId: string): Promise<StoredVersions>;
  /** The action's latest version and what is published where. */
  actionVersions(actionId: string): Promise<StoredVersions>;
  /** A resource by its API path below the project, or undefined when there is none (404). */
  get(path: string): Promise<Record<string, unknown> | undefined>;
  /** `created`: the service answered 201 (it did not exist), else 200. */
  put(
    path: string,
    body: unknown,
    options?: { ifMatch?: number; method?: 'PUT' | 'POST' },
  ): Promise<{ created: boolean; saved: Record<string, unknown> }>;
}

function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { detail: text.slice(0, 500) }; // a proxy's error page, say: still worth showing
  }
}

export const dataSourcePath = (id: string) => `data-sources/${encodeURIComponent(id)}`;
export const masterDataPath = (id: string) => `master-data/${encodeURIComponent(id)}`;
export const actionPath = (id: string) => `actions/${encodeURIComponent(id)}`;
export const membersPath = 'members';
export const memberPath = (principalId: string) => `members/${encodeURIComponent(principalId)}`;
export const userGroupPath = (id: string) => `user-groups/${encodeURIComponent(id)}`;
export const actionGroupPath = (id: string) => `action-groups/${encodeURIComponent(id)}`;
export const viewPath = (id: string) => `views/${encodeURIComponent(id)}`;
export const viewPublicationPath = (viewId: string, environmentId: string) =>
  `${viewPath(viewId)}/publications/${encodeURIComponent(environmentId)}`;
export const serviceAccountsPath = 'service-accounts';
export const serviceAccountPath = (id: string) => `service-accounts/${encodeURIComponent(id)}`;
export const trustPolicyPath = (serviceAccountId: string, policyId: string) =>
  `${serviceAccountPath(serviceAccountId)}/trust-policies/${encodeURIComponent(policyId)}`;
export const publicationPath = (actionId: string, environmentId: string) =>
  `${actionPath(actionId)}/publications/${encodeURIComponent(environmentId)}`;
export const cronJobsPath = (environmentId: string) =>
  `environments/${encodeURIComponent(environmentId)}/cron-jobs`;
export const cronJobPath = (environmentId: string, jobId: string) =>
  `${cronJobsPath(environmentId)}/${encodeURIComponent(jobId)}`;
export const notificationsPath = 'notifications';
export const networkPolicyPath = `${notificationsPath}/network-policy`;
export const notificationTargetsPath = `${notificationsPath}/targets`;
export const notificationTargetPath = (id: string) => `${notificationTargetsPath}/${encodeURIComponent(id)}`;
export const notificationRulesPath = `${notificationsPath}/rules`;
export const notificationRulePath = (id: string) => `${notificationRulesPath}/${encodeURIComponent(id)}`;
export const variablePath = (environmentId: string, name: string) =>
  `environments/${encodeURIComponent(environmentId)}/variables/${encodeURIComponent(name)}`;
export const secretPath = (environmentId: string, name: string) =>
  `environments/${encodeURIComponent(environmentId)}/secrets/${encodeURIComponent(name)}`;

export function managementApi(options: { baseUrl: string; token: string; projectId: string }): ManagementApi {
  const projectUrl = new URL(`/api/v1/projects/${encodeURIComponent(options.projectId)}/`, options.baseUrl);
  const request = async (
    method: 'GET' | 'PUT' | 'POST',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const url = new URL(path, projectUrl);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${options.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      throw new ApiError(0, unreachable(url.origin, cause));
    }
    const text = await response.text();
    const parsed = text ? jsonOrText(text) : undefined;
    if (!response.ok)
      throw new ProblemError(response.status, parsed as Problem | undefined, response.statusText);
    return { status: response.status, body: parsed as Record<string, unknown> };
  };
  const list = async <T>(path: string) => ((await request('GET', path)).body as { data: T[] }).data;
  return {
    projectId: options.projectId,
    listDataSources: () => list<StoredResource>('data-sources'),
    listActions: () => list<StoredAction>('actions'),
    listMasterData: () => list<StoredResource>('master-data'),
    listVariables: (environmentId) =>
      list<{ name: string; value: string }>(`environments/${encodeURIComponent(environmentId)}/variables`),
    listSecrets: (environmentId) =>
      list<StoredSecret>(`environments/${encodeURIComponent(environmentId)}/secrets`),
    listMembers: () => list<StoredMember>('members'),
    listUserGroups: () => list<StoredGroup>('user-groups'),
    listActionGroups: () => list<StoredGroup>('action-groups'),
    listViews: () => list<StoredResource>('views'),
    listServiceAccounts: () => list<StoredServiceAccount>(serviceAccountsPath),
    listTrustPolicies: (serviceAccountId) =>
      list<StoredTrustPolicy>(`${serviceAccountPath(serviceAccountId)}/trust-policies`),
    listCronJobs: (environmentId) => list<StoredCronJob>(cronJobsPath(environmentId)),
    listEnvironments: () => list<{ id: string; protected?: boolean }>('environments'),
    notifications: async () =>
      (await request('GET', notificationsPath)).body as unknown as StoredNotifications,
    viewVersions: async (viewId) =>
      (await request('GET', `${viewPath(viewId)}/versions`)).body as unknown as StoredVersions,
    actionVersions: async (actionId) =>
      (await request('GET', `${actionPath(actionId)}/versions`)).body as unknown as StoredVersions,
    get: async (path) => {
      try {
        return (await request('GET', path)).body;
      } catch (error) {
        if (error instanceof ProblemError && error.status === 404) return undefined;
        throw error;
      }
    },
    put: async (path, body, { ifMatch, method = 'PUT' } = {}) => {
      const response = await request(
        method,
        path,
        body,
        ifMatch === undefined ? {} : { 'if-match': `"${ifMatch}"` },
      );
      return { created: response.status === 201, saved: response.body };
    },
  };
}
