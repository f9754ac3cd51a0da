/** Records of the domain. Storage adapters persist them; nothing here knows how. */
import type { Role } from './roles.ts';

/** The MCP client an agent called through (its `clientInfo` at initialize): recorded, never trusted. */
export interface AgentClient {
  client: string;
}

export interface Project {
  id: string;
  name: string;
  createdAt: string;
  /** Spec 5.1 direct variant (under development): the public API accepts external ID tokens as Bearer. */
  directIdTokens?: boolean;
  /** Hosts its views may load media from and navigate to without asking (docs/views.md, decision 0155). */
  allowedHosts?: string[];
  /** Bridges data sources may go through (`via`); managed in project settings (docs/bridge.md). */
  bridges?: import('./bridges/model.ts').BridgeRegistration[];
  /** What AI agents may see and do over MCP (docs/agents.md); absent: the defaults of agent-settings.ts. */
  agents?: import('./agents/agent-settings.ts').AgentSettings;
}

export interface Environment {
  projectId: string;
  id: string;
  name: string;
  createdAt: string;
  /** Spec 2.8 "per-environment usage restriction": when set, service accounts cannot be cron executors. */
  usageRestricted?: boolean;
  /**
   * Only published versions of actions and views run or show here (docs/governance.md). Absent on
   * records stored before protection existed: read by `isProtectedEnvironment` (decision 0090).
   */
  protected?: boolean;
}

export interface Membership {
  projectId: string;
  principalId: string;
  role: Role;
}

export interface User {
  id: string;
  email: string;
  name: string;
  createdAt: string;
}

export type { ParameterDefinition, ParameterKind } from './definitions/parameter.ts';

interface Stored {
  projectId: string;
  createdAt: string;
  updatedAt: string;
}

export type DataSource = import('./definitions/data-source.ts').DataSourceInput &
  Stored & {
    /**
     * Set on the demo data source the embedded runtime seeds: it re-points it at
     * the demo database on every start (that database's port may change).
     * Editing the data source clears the mark.
     */
    managedBy?: 'embedded-demo';
  };

export type Action = import('./definitions/action.ts').ActionInput &
  Stored & {
    /** Increases by one on every save. */
    version: number;
    /** Who saved this version (absent on records older than versioning). */
    updatedBy?: { id: string; email: string };
  };

/** Values per environment, readable by members and usable as {{ vars.name }}. */
export type Variables = Record<string, string>;

export type PrincipalKind = 'user' | 'service_account';

/** Who is calling: taken from a verified token, never from the request body. */
export interface Principal {
  kind: PrincipalKind;
  id: string;
  email: string;
  name: string;
}

export type ColumnType = 'string' | 'number' | 'boolean' | 'bigint' | 'json';

/** How a result value should be shown (spec 1): decided per column from its values. */
export type MediaKind = 'image' | 'video' | 'pdf';

export interface Column {
  name: string;
  type: ColumnType;
  /** Set when the column's values are URLs of media (or, for HTTP results, the body is media). */
  media?: MediaKind;
}

export interface StatementResult {
  title: string;
  status: 'succeeded' | 'failed';
  columns: Column[];
  rows: Record<string, unknown>[];
  rowCount: number;
  messages: string[];
  /** Rows were cut at the result size limit (see result-limits.ts). */
  truncated?: boolean;
  error?: { code: string; message: string };
  /**
   * Set on the results of a preview (decision 0185): the statement ran in a transaction that was
   * rolled back. `rows` are what it returned (`RETURNING`); `before`/`after` its preview query's rows.
   */
  preview?: StatementPreview;
}

/** What one statement of a rolled-back preview would do. */
export interface StatementPreview {
  /** Rows the statement inserted, updated or deleted; null where the database does not say (DDL). */
  rowsAffected: number | null;
  /** The statement's preview query (`previewSql`) just before it ran, in the same transaction. */
  before?: PreviewRows;
  /** The same query just after it ran, before the rollback. */
  after?: PreviewRows;
}

export interface PreviewRows {
  columns: Column[];
  rows: Record<string, unknown>[];
  /** Rows past the preview's row budget were left out. */
  truncated?: boolean;
}

/** The screen an execution was started from: a view (docs/views.md). */
export interface ExecutionSource {
  viewId: string;
}

/** queued: an asynchronous job waiting for the job runner (docs/scheduling.md). */
export type ExecutionStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'timed_out';

/** One payload of an execution kept outside its record: its size in UTF-8 bytes of JSON. */
export interface StoredPayload {
  bytes: number;
  /** False where the runtime has no payload store: the value was left out, not kept. */
  stored: boolean;
}

export interface Execution {
  id: string;
  projectId: string;
  environmentId: string;
  actionId: string;
  actionVersion: number;
  status: ExecutionStatus;
  principal: Pick<Principal, 'kind' | 'id' | 'email'>;
  /** `view`: called from a view (spec 1), with `source.viewId`. */
  via: 'public_api' | 'console' | 'cron' | 'batch' | 'reservation' | 'review' | 'async_job' | 'view' | 'mcp';
  /** Run by an AI agent over MCP (docs/agents.md): the client's self-declared name, informative only. */
  agent?: AgentClient;
  /** Where a scheduled run came from: the cron job, reservation or batch (and row). */
  origin?: {
    cronJobId?: string;
    scheduledAt?: string;
    reservationId?: string;
    batchId?: string;
    row?: number;
  };
  /** The review request whose approval ran this execution. */
  reviewId?: string;
  /** Where the caller ran it from (spec 1 "called from a view"); informative, grants nothing. */
  source?: ExecutionSource;
  /** Run by `actions.run` inside this execution of a JavaScript action (decision 0040). */
  parentExecutionId?: string;
  /** The runs this execution started with `actions.run`, in order. */
  nestedExecutionIds?: string[];
  arguments: Record<string, unknown>;
  startedAt: string;
  /**
   * When the run must have ended (its time limit from `startedAt`). Written with the `running` record
   * before the action runs; a record still running well past it lost its worker (the sweeper ends it).
   */
  deadlineAt?: string;
  finishedAt?: string;
  durationMs?: number;
  /**
   * Arguments or results too large for the record or the response (decision 0056): kept in the
   * payload store and served by link (`stored`), or, where no payload store exists, left out.
   */
  payloads?: { arguments?: StoredPayload; results?: StoredPayload };
  /** A summary of each statement: the rows themselves are returned, not stored. */
  statements: { title: string; status: StatementResult['status']; rowCount: number; messages: string[] }[];
  error?: { code: string; message: string };
  /** The bridge the run's connection went through (`via`), for the audit and history. */
  bridgeId?: string;
  /** A preview (decision 0185): run in a transaction that was rolled back; not a run of the action. */
  preview?: true;
}
