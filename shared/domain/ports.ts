/**
 * The ports the domain depends on. Adapters (DynamoDB, PostgreSQL, in-process
 * clock) implement them; the domain never imports an adapter.
 */

import type { ActionInput } from './definitions/action.ts';
import type { ActionGroup, UserGroup } from './definitions/governance.ts';
import type { MasterDataList } from './definitions/master-data.ts';
import type {
  Action,
  DataSource,
  Environment,
  Execution,
  Membership,
  Project,
  StatementResult,
  User,
} from './model.ts';
import type { VersionedDocuments } from './versioned-documents.ts';
import type { ActionVersion, Publication } from './versions.ts';
import type { ViewPublication, ViewStore, ViewVersion } from './views/store.ts';

export interface DefinitionReader {
  getProject(projectId: string): Promise<Project | undefined>;
  getEnvironment(projectId: string, environmentId: string): Promise<Environment | undefined>;
  getAction(projectId: string, actionId: string): Promise<Action | undefined>;
  getDataSource(projectId: string, dataSourceId: string): Promise<DataSource | undefined>;
  getMembership(projectId: string, principalId: string): Promise<Membership | undefined>;
}

export interface StoredSecret {
  ciphertext: string;
  updatedAt: string;
}

/** Thrown by create* methods when the record already exists (a conditional write failed). */
export class AlreadyExistsError extends Error {
  constructor(what: string) {
    super(`${what} already exists`);
    this.name = 'AlreadyExistsError';
  }
}

/**
 * The definitions of projects: projects, environments, members and groups, data sources, actions and
 * views with their versions, configuration. Execution records, review requests, service accounts
 * and trust policies, audit entries, scheduling, accounts and files are ports of their own
 * (ExecutionStore below, ReviewStore, IdentityStore, AuditLog, SchedulingStore, AccountStore,
 * FileStorage).
 */
export interface Store extends DefinitionReader, ViewStore {
  /** Versions and publications of actions (docs/governance.md). */
  readonly actionVersions: VersionedDocuments<ActionVersion, Publication>;
  /** Versions and publications of views, kept the same way. */
  readonly viewVersions: VersionedDocuments<ViewVersion, ViewPublication>;
  createProject(project: Project): Promise<void>;
  /** Replaces an existing project's record (its settings). */
  updateProject(project: Project): Promise<void>;
  createEnvironment(environment: Environment): Promise<void>;
  /** Replaces an existing environment's record (its name and settings). */
  updateEnvironment(environment: Environment): Promise<void>;
  putMembership(membership: Membership): Promise<void>;
  /** The direct memberships of a principal across projects. */
  listMembershipsOfPrincipal(principalId: string): Promise<Membership[]>;
  putDataSource(dataSource: DataSource): Promise<void>;
  putAction(action: Action): Promise<void>;
  listEnvironments(projectId: string): Promise<Environment[]>;
  listDataSources(projectId: string): Promise<DataSource[]>;
  /** False when there was nothing to delete. */
  deleteDataSource(projectId: string, dataSourceId: string): Promise<boolean>;
  listActions(projectId: string): Promise<Action[]>;
  /**
   * Saves the action only if the stored version is `expectedVersion` (0: it must not exist yet),
   * so two concurrent edits cannot overwrite each other. False on such a conflict.
   */
  saveAction(action: Action, expectedVersion: number): Promise<boolean>;
  deleteAction(projectId: string, actionId: string): Promise<boolean>;

  /** Variables of one environment, by name. */
  listVariables(projectId: string, environmentId: string): Promise<Record<string, string>>;
  putVariable(projectId: string, environmentId: string, name: string, value: string): Promise<void>;
  deleteVariable(projectId: string, environmentId: string, name: string): Promise<boolean>;
  /** Encrypted secrets of one environment, by name. */
  listSecrets(projectId: string, environmentId: string): Promise<Record<string, StoredSecret>>;
  putSecret(projectId: string, environmentId: string, name: string, secret: StoredSecret): Promise<void>;
  deleteSecret(projectId: string, environmentId: string, name: string): Promise<boolean>;
  getMasterData(projectId: string, masterDataId: string): Promise<MasterDataList | undefined>;
  listMasterData(projectId: string): Promise<MasterDataList[]>;
  putMasterData(list: MasterDataList): Promise<void>;
  deleteMasterData(projectId: string, masterDataId: string): Promise<boolean>;
  /** Every variable and secret name of the project, per environment (for save-time checks). */
  listConfigurationNames(
    projectId: string,
  ): Promise<{ kind: 'variable' | 'secret'; environmentId: string; name: string }[]>;

  getUserByEmail(email: string): Promise<User | undefined>;
  /** Creates the user and returns it as stored; AlreadyExistsError when the e-mail address is taken. */
  createUser(user: User): Promise<User>;

  // Members, user groups, action groups
  /** Direct memberships of a project, read consistently: the last-administrator check counts them. */
  listMemberships(projectId: string): Promise<Membership[]>;
  /** False when there was nothing to delete. */
  deleteMembership(projectId: string, principalId: string): Promise<boolean>;
  /** The users with these ids that exist, in no particular order. */
  getUsers(userIds: readonly string[]): Promise<User[]>;
  getUserGroup(projectId: string, groupId: string): Promise<UserGroup | undefined>;
  listUserGroups(projectId: string): Promise<UserGroup[]>;
  /** The groups of a project that list the principal as a member (one Query and one batch read). */
  listUserGroupsOfPrincipal(projectId: string, principalId: string): Promise<UserGroup[]>;
  /** Saves only if the stored version is `expectedVersion` (0: must not exist yet); false on conflict. */
  saveUserGroup(group: UserGroup, expectedVersion: number): Promise<boolean>;
  deleteUserGroup(projectId: string, groupId: string): Promise<boolean>;
  getActionGroup(projectId: string, groupId: string): Promise<ActionGroup | undefined>;
  listActionGroups(projectId: string): Promise<ActionGroup[]>;
  /** Saves only if the stored version is `expectedVersion` (0: must not exist yet); false on conflict. */
  saveActionGroup(group: ActionGroup, expectedVersion: number): Promise<boolean>;
  deleteActionGroup(projectId: string, groupId: string): Promise<boolean>;
}

/** Port: coordination between processes that share the store, without transactions. */
export interface Coordination {
  /** Claims a one-time marker (e.g. a seed); false when it was claimed before. */
  claimMarker(name: string, at: string): Promise<boolean>;
  hasMarker(name: string): Promise<boolean>;
  /**
   * Takes the named lease for `ttlMs` unless another holder's lease is still running (then false).
   * Serialises changes that must see each other (member roles of one project) without transactions.
   */
  acquireLock(name: string, holder: string, now: Date, ttlMs: number): Promise<boolean>;
  /** Gives the lease back if `holder` still holds it. */
  releaseLock(name: string, holder: string): Promise<void>;
}

/** Port: the records of runs (the history), written as a run starts and again as it ends. */
export interface ExecutionStore {
  putExecution(execution: Execution): Promise<void>;
  /** Writes many executions in as few requests as the store allows (idempotent per id). */
  putExecutions(executions: Execution[]): Promise<void>;
  getExecution(executionId: string): Promise<Execution | undefined>;
  /** Executions still `running` whose `deadlineAt` is before this ISO time (read by index, not Scan). */
  listOverdueExecutions(deadlineBefore: string): Promise<Execution[]>;
}

/**
 * Execution payloads too large for a record or a response (decision 0056): an S3 bucket whose objects
 * expire on AWS, `<dataDir>/payloads` in the embedded runtime. Keys come from execution ids.
 */
export interface PayloadStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<Uint8Array | undefined>;
  /** A URL that GETs the object for `seconds` (S3 presigned); absent: the API serves the bytes itself. */
  downloadUrl?(key: string, seconds: number): Promise<string>;
}

/**
 * Bytes too large for a store item (protosets of several MB), by key: S3 on AWS, files under the
 * data directory in the embedded runtime. Keys are made by the domain from ids (no user text).
 */
export interface BlobStore {
  /** Writes the whole object or nothing (no reader ever sees part of it). */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** Undefined when there is no such object. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
}

/**
 * Files uploaded for one data source environment, kept as versions in the blob store
 * (a gRPC data source's protosets). Engines read them; the domain stores them.
 */
export interface DataSourceFiles {
  /** The bytes of a version, or of the latest when `versionId` is omitted; undefined when none. */
  read(versionId?: string): Promise<{ versionId: string; bytes: Uint8Array } | undefined>;
}

/** One action run handed to its kind's engine (shared/connectors/, docs/connectors.md). */
export interface EngineRun {
  action: Action;
  dataSource: DataSource;
  environmentId: string;
  /** This environment's connection settings, secret fields decrypted: never log or return it. */
  connection: Record<string, unknown>;
  /** The data source and environment, for pools, channels and caches. */
  key: string;
  /** The value of every {{ reference }} the action and its connection use. */
  values: Record<string, unknown>;
  signal: AbortSignal;
  deadlineAt: number;
  /** Runs another action of the project for the same caller (an authentication action); depth-limited. */
  callAction(actionId: string): Promise<StatementResult[]>;
  /**
   * `actions.run` of a JavaScript action: runs another action as the calling user through the whole
   * execution path (permission with this action as caller, review, environment version, history under
   * this execution); resolves to its value, rejects with a DoguError the script sees (decision 0040).
   */
  runAction?(actionId: string, args: Record<string, unknown>): Promise<unknown>;
  /** Runs user JavaScript in isolation (JavaScript actions). */
  sandbox?: ScriptSandbox;
  /** This data source environment's uploaded files (protoset versions); absent where none are kept. */
  files?: DataSourceFiles;
  /** An ID token of Dogu's own IdP naming this project environment (storage federation, spec 5.2). */
  identityToken?: IdentityTokenSource;
  /** Estimate only, change and read nothing (kinds whose definition declares `dryRun`). */
  dryRun?: boolean;
  /**
   * Run in one transaction that is always rolled back, reporting per statement the rows affected
   * (kinds whose definition declares `preview`; decision 0185). Nothing is committed.
   */
  preview?: boolean;
  /** The bridge this environment's connection goes through (`via`), absent for a direct one. */
  bridge?: BridgeRoute;
}

/** Rows of a batch run as one group: `run.values` is unused, each row brings its own values. */
export interface RowGroupRun {
  run: EngineRun;
  rows: Record<string, unknown>[];
  /** Called once the group will run, before anything of it runs. */
  beforeRun(): Promise<void>;
}

/**
 * `not_grouped`: the kind or the statement cannot run as a group, nothing ran. `committed`: each
 * row's results, the successful rows committed together. `rolled_back`: nothing committed, the rows
 * may run one at a time. `unknown`: the connection was lost at COMMIT.
 */
export type RowGroupResult =
  | { kind: 'not_grouped' }
  | { kind: 'committed'; rows: StatementResult[][] }
  | { kind: 'rolled_back'; reason: { code: string; message: string } }
  | { kind: 'unknown'; reason: { code: string; message: string } };

/**
 * A data source environment reached through a bridge the customer runs (docs/bridge.md): where
 * it listens, what is trusted for its TLS certificate, and fresh per-connection tokens.
 */
export interface BridgeRoute {
  id: string;
  /** `https://host:port` of the bridge. */
  url: string;
  /** PEM certificates trusted for the bridge (its own or its CA); nothing else is trusted. */
  certificates: string[];
  /** A new token of Dogu's IdP for one connection to `target` (`host:port`): audience the bridge id. */
  token(target: string): Promise<string>;
  /** Called with what the bridge said about itself (version, time-out) when it answers. */
  contacted?(contact: { version?: string; timeoutMs?: number }): void;
}

/**
 * Issues an ID token of Dogu's own IdP for one audience; the subject and the `project_id`,
 * `environment_id` and `tenant_subdomain` claims name the run's project environment.
 */
export type IdentityTokenSource = (audience: string) => Promise<{ token: string; expiresAt: Date }>;

/** A connection to try: one environment's settings, secret fields decrypted. */
export interface ConnectionCheck {
  key: string;
  /** The project environment whose connection is tried (session names, federation tokens). */
  projectId?: string;
  environmentId?: string;
  connection: Record<string, unknown>;
  signal: AbortSignal;
  files?: DataSourceFiles;
  /** As in EngineRun: the trust of a federated connection is checked with a real token. */
  identityToken?: IdentityTokenSource;
  /** As in EngineRun: the connection goes through this bridge. */
  bridge?: BridgeRoute;
}

/** What an action of a data source can call, for the console's pickers (e.g. a gRPC server's methods). */
export interface Catalog {
  entries: CatalogEntry[];
}

export interface CatalogEntry {
  /** Unique within the catalog, e.g. "shop.v1.OrderService/GetOrder". */
  id: string;
  label: string;
  description?: string;
  /** Action fields to set when the entry is chosen, by name (e.g. service, method, request). */
  fill: Record<string, unknown>;
}

export interface ConnectionCheckResult {
  ok: boolean;
  durationMs: number;
  /** Why it failed, in words a user can act on; never a secret. */
  error?: {
    code: string;
    message: string;
    /** Through a bridge: the hop that failed (`dogu_to_bridge`, `bridge`, `bridge_to_target`, `target`). */
    hop?: string;
  };
}

/** A reference check result of the kind's own save-time rules. */
export interface ActionProblems {
  fail(pointer: string, detail: string): void;
  check(reference: string, pointer: string): void;
}

/**
 * Runs and describes actions of every data-source kind. The domain has no kind branches: it asks
 * this port (implemented over the connector registry in shared/connectors/engines.ts).
 */
export interface ActionEngines {
  /** The action kind a data-source kind runs (e.g. postgresql → sql); undefined for an unknown kind. */
  actionKindOf(dataSourceKind: string): string | undefined;
  run(run: EngineRun): Promise<StatementResult[]>;
  /** Batch rows of one action in one transaction, a savepoint per row (decision 0255). */
  runRowGroup(group: RowGroupRun): Promise<RowGroupResult>;
  /** Every {{ reference }} of the action and, when given, of one environment's connection. */
  references(action: ActionInput, dataSource?: DataSource, environmentId?: string): Set<string>;
  /** The kind's own save-time checks of an action (the common ones are the domain's). */
  validate(action: ActionInput, dataSource: DataSource, problems: ActionProblems): void;
  /** Connection fields of the kind that are write-only (encrypted at rest, never returned). */
  secretFields(dataSourceKind: string): readonly string[];
  /** Whether the kind lets a data source name an authentication action. */
  allowsAuthAction(dataSourceKind: string): boolean;
  /** Whether the kind's runtime can estimate an action without running it (a dry run). */
  supportsDryRun(dataSourceKind: string): boolean;
  /** Whether the kind's runtime can preview an action in a rolled-back transaction (decision 0185). */
  supportsPreview(dataSourceKind: string): boolean;
  testConnection(dataSourceKind: string, check: ConnectionCheck): Promise<void>;
  /** What actions of the data source can call; rejects with a DoguError when the kind has no catalog. */
  catalog(dataSourceKind: string, check: ConnectionCheck): Promise<Catalog>;
  /** The files a data source of the kind keeps as versions (gRPC: protosets); undefined when none. */
  fileKind(dataSourceKind: string): { name: string; maxBytes: number; pinField: string } | undefined;
  /** Parses an uploaded file of the kind; rejects with a DoguError naming what is wrong. */
  describeFile(dataSourceKind: string, bytes: Uint8Array): Promise<Record<string, unknown>>;
  /** The OAuth provider of a kind that connects with OAuth (a Connect button); undefined otherwise. */
  oauthProvider(dataSourceKind: string, connection: Record<string, unknown>): OAuthProvider | undefined;
  close(): Promise<void>;
}

/**
 * An OAuth 2.0 authorization server and the data source's client at it (decision 0041). The
 * client id and secret may be missing: the connect flow then says which fields to set.
 */
export interface OAuthProvider {
  authorizeUrl: string;
  tokenUrl: string;
  /** RFC 7009 revocation; without it a disconnect only forgets the token. */
  revokeUrl?: string;
  /** Answers `{ email }` for the access token: whom the connection acts as. */
  userinfoUrl?: string;
  scopes: readonly string[];
  /** Provider-specific parameters of the authorization request (Google: access_type, prompt). */
  authorizeParameters?: Record<string, string>;
  clientId?: string;
  clientSecret?: string;
  /** Names the fields to set when the client is missing, for the error message. */
  clientFields: { clientId: string; clientSecret: string };
}

/** What the token endpoint answered (RFC 6749 5.1). */
export interface OAuthTokens {
  accessToken: string;
  refreshToken?: string;
  expiresAt: number;
  scopes: string[];
}

/** Talks to OAuth authorization servers (token, revocation, userinfo endpoints). */
export interface OAuthClient {
  exchangeCode(
    provider: OAuthProvider,
    grant: { code: string; codeVerifier: string; redirectUri: string },
  ): Promise<OAuthTokens>;
  refresh(provider: OAuthProvider, refreshToken: string): Promise<OAuthTokens>;
  revoke(provider: OAuthProvider, token: string): Promise<void>;
  accountOf(provider: OAuthProvider, accessToken: string): Promise<string | undefined>;
}

/** An HTTP request, fully resolved: no templates left. */
export interface HttpCall {
  method: string;
  url: string;
  headers: [string, string][];
  body?: Uint8Array | string;
}

export interface HttpCallResult {
  status: number;
  /** Lower-case names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  body: Uint8Array;
}

export interface HttpClient {
  /** Rejects with DoguError ('execution_timeout', 'data_source_error'); any HTTP status resolves. */
  send(
    call: HttpCall,
    options: {
      signal: AbortSignal;
      timeoutMs: number;
      maxBodyBytes: number;
      /** The data source's opt-in to private (RFC 1918) networks where they are denied by default. */
      allowPrivateNetworks?: boolean;
    },
  ): Promise<HttpCallResult>;
}

/** Encrypts secrets at rest: KMS on AWS, a local key file in the embedded runtime. */
export interface SecretCipher {
  /** `context` binds the ciphertext to where it belongs (project, environment, name). */
  encrypt(plaintext: string, context: Record<string, string>): Promise<string>;
  decrypt(ciphertext: string, context: Record<string, string>): Promise<string>;
}

export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  /** Time-ordered, URL-safe id with a readable prefix, e.g. `exe_…`. */
  next(prefix: string): string;
}

/**
 * Runs user JavaScript in isolation (docs/javascript.md, decision 0039): an async function body with
 * no file system, environment, network modules, child processes or `require`; wall-clock and memory
 * limits; values cross the boundary only as JSON. QuickJS in a worker thread (embedded runtime) or
 * in a dedicated function whose role grants nothing (AWS).
 */
export interface ScriptSandbox {
  run(script: ScriptRun): Promise<ScriptOutcome>;
  close?(): Promise<void>;
}

export interface ScriptRun {
  /** The body of an async function: top-level `await` and `return` allowed. */
  code: string;
  /** Read-only global values the script sees by name (e.g. `params`, `result`); JSON only. */
  globals: Record<string, unknown>;
  /** Wall-clock limit of the whole run, host calls included (time spent waiting for a worker too). */
  timeLimitMs: number;
  memoryLimitBytes?: number;
  /** Where the run stands among nested runs (set by the domain for every sandbox run of an execution). */
  lane?: ScriptLane;
  /**
   * `await actions.run(actionId, args)` inside the script; absent: the script cannot run actions.
   * A rejection with a DoguError reaches the script as a thrown Error with its message.
   */
  runAction?(actionId: string, args: Record<string, unknown>): Promise<unknown>;
  /**
   * Document-database actions: the script gets `db`/`firestore` (document mode) or `datastore`
   * (key-entity mode), whose operations the host performs with the data source's own key.
   */
  database?: {
    mode: 'document' | 'key-entity';
    call(operation: Record<string, unknown>): Promise<unknown>;
  };
}

/**
 * A run's place among `actions.run` nesting: a nested run must never wait for a worker its own
 * ancestors hold, and callers share a pool fairly (decision 0077).
 */
export interface ScriptLane {
  /** The execution id of the top-level run of the tree. */
  tree: string;
  /** 1: started directly; 2 and more: started by `actions.run` of the run one level up. */
  depth: number;
  /** Who asked (the principal id): waiting runs are served one caller after another. */
  caller: string;
}

export interface ScriptLog {
  level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  message: string;
}

export type ScriptErrorCode =
  | 'script_syntax_error'
  | 'script_error'
  | 'script_timeout'
  | 'script_memory_limit'
  | 'script_result_not_json';

export type ScriptOutcome =
  | { ok: true; value: unknown; logs: ScriptLog[]; durationMs: number }
  | {
      ok: false;
      error: { code: ScriptErrorCode; message: string; line?: number; column?: number; stack?: string };
      logs: ScriptLog[];
      durationMs: number;
    };
