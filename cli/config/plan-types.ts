/** The vocabulary of a plan: what changes per resource, and the requests that make it so. */
import type { FieldChange } from './diff.ts';
import type { Path } from './path.ts';
import type { ProjectState } from './project-state.ts';
import type { ConfigFile } from './schema.ts';

export type ResourceKind =
  | 'variable'
  | 'secret'
  | 'masterData'
  | 'dataSource'
  | 'action'
  | 'member'
  | 'userGroup'
  | 'actionGroup'
  | 'view'
  | 'viewPublication'
  | 'publication'
  | 'serviceAccount'
  | 'trustPolicy'
  | 'cronJob'
  | 'notificationPolicy'
  | 'notificationTarget'
  | 'notificationRule';
export type Change = 'create' | 'update' | 'unchanged';

/** A write-only value (a secret, an SQL password): it cannot be read back, so it cannot be compared. */
export interface WriteOnlyValue {
  /** Within the resource: `environments.development.password`, or empty for a secret itself. */
  path: Path;
  envVar: string;
  /**
   * set: the environment variable has a value, which apply sends. kept: it is not set and the
   * service already has a value, which stays. missing: not set and nothing to keep: apply refuses.
   */
  status: 'set' | 'kept' | 'missing';
}

export interface PlannedResource {
  kind: ResourceKind;
  /**
   * The id; `environment.name` for variables, secrets, cron jobs and publications (`environment.actionId`);
   * a member's e-mail.
   */
  id: string;
  /** Where the resource is in the file, to point at it (and at the API's field errors). */
  filePath: Path;
  change: Change;
  fields: FieldChange[];
  writeOnly: WriteOnlyValue[];
  /** Actions: the version read now, which apply sends as If-Match (0: must not exist yet). */
  version?: number;
  /** What applying this change does beyond the change itself (a trust policy's tokens revoked, …). */
  warnings?: string[];
}

/**
 * One PUT (or POST). Resources without If-Match are read again first: a different answer means
 * someone changed it.
 */
export interface WriteStep {
  resource: PlannedResource;
  path: string;
  /** PUT unless said otherwise (a member is added by e-mail with POST). */
  method?: 'POST';
  body: unknown;
  /**
   * The body, made when the step runs: a user group names users by e-mail, and a user the same apply
   * adds as a member gets its id only then (likewise a rule's targets, a cron job's executor).
   */
  bodyFor?: (ids: ServerIds) => unknown;
  /** The path, made when the step runs: a trust policy of an account the same apply creates needs its id. */
  pathFor?: (ids: ServerIds) => string;
  /**
   * What this step creates, so that later steps can name it: the answer's `field` is recorded in
   * `ids[map]` under `key` (a new member's principal id under its address, a target's id under its name).
   */
  identifies?: { map: keyof ServerIds; key: string; field: 'id' | 'principalId' };
  ifMatch?: number;
  guard?: {
    field: 'updatedAt' | 'value' | 'version' | 'role';
    expected: unknown;
    /**
     * Where to read the current value when the written path cannot be read (a notification target
     * is read in its project's settings): the path, and the part of its answer that holds `field`.
     */
    read?: { path: string; select: (answer: Record<string, unknown>) => unknown };
  };
  /** Why this step differs from a plain save of the resource. */
  note?: string;
  /**
   * Where a field error of the API (`#/actionId`) is in the file, relative to the resource, when the
   * body names fields differently from the file (`action`). Without it the pointer is the path.
   */
  filePathOfPointer?: (pointer: string) => Path;
}

export interface PlanProblem {
  path: Path;
  message: string;
  /** Point at the key of `path` (an environment id) rather than at its value. */
  at?: 'key';
  /** A line and column inside the string at `path` (a view expression's syntax error). */
  within?: { line: number; column: number };
}

export interface Plan {
  projectId: string;
  resources: PlannedResource[];
  /** In the order they must run. */
  steps: WriteStep[];
  notInFile: { kind: ResourceKind; id: string }[];
  /** What makes the file impossible to apply as it stands; nothing is sent while there are any. */
  problems: PlanProblem[];
  /** The ids the service made for what the file names otherwise, as read for the plan. */
  ids: ServerIds;
}

/**
 * Ids the service makes, by what the file names things by; apply adds those of what it creates
 * (WriteStep.identifies), so a later step can refer to something the same apply created.
 */
export interface ServerIds {
  /** Lower-case e-mail address → principal id of members and service accounts (`<name>@<project>.sa.dogu`). */
  principals: ReadonlyMap<string, string>;
  /** Cron job `<environment>.<name>` → its id. */
  cronJobs: ReadonlyMap<string, string>;
  /** Notification target name → its id. */
  notificationTargets: ReadonlyMap<string, string>;
}

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The order of writes. References are checked by the service when something is saved: actions
 * name variables, secrets, master data lists and data sources; an HTTP data source names its
 * authentication action, which runs against that same data source; and `{{ authToken }}` in an
 * action needs its data source to have an authentication action already. So a data source whose authentication action is new is
 * saved without it first (when it is new itself), the authentication actions next, then the data
 * source with it, then every other action.
 *
 * Governance: new members come first (an unknown address is invited when an account administrator
 * applies, decision 0028) — and user groups, which
 * name members and which actions' permissions name, before data sources and actions. Action groups
 * name actions and publications name their versions, so both come after the actions; views name
 * actions, action groups and other views, so they come after the action groups. Role changes
 * of existing members come last: a file that lowers the role of whoever runs apply then takes that
 * right away only after everything else was written. Service accounts and their trust policies come
 * after user groups (a policy of a new account needs the account's id, known once it is created) and
 * before actions, though nothing else names them by id: an action's permission names an account by
 * its e-mail address. A role change of an existing account is a role change of a member: last.
 * Cron jobs name actions (the version published in their environment) and service accounts as
 * executors, so they come after both, before the role changes. Notifications come next: the network
 * policy first (a target on a private address needs it), then targets, then rules, which name
 * actions, cron jobs and targets by the ids the service made. Later kinds take their place in this list.
 */
export const phases = [
  'members',
  'variables',
  'secrets',
  'masterData',
  'userGroups',
  'serviceAccounts',
  'trustPolicies',
  'dataSources',
  'authActions',
  'dataSourceAuth',
  'actions',
  'actionGroups',
  'views',
  'publications',
  'viewPublications',
  'cronJobs',
  'notificationPolicy',
  'notificationTargets',
  'notificationRules',
  'memberRoles',
] as const;
export type Phase = (typeof phases)[number];

/** A resource and the writes it needs, each in its phase (none when unchanged). */
export interface PlannedWrites {
  resource: PlannedResource;
  writes: { phase: Phase; step: Omit<WriteStep, 'resource'> }[];
}

/** What each kind's planner gets and gives: one module per top-level key of the file. */
export interface PlanInput {
  config: ConfigFile;
  state: ProjectState;
  env: Environment;
  projectId: string;
}
export interface PlannerResult {
  planned: PlannedWrites[];
  problems: PlanProblem[];
}
