/** Records of the domain. Storage adapters persist them; nothing here knows how. */

export interface Project {
  id: string;
  name: string;
  createdAt: string;
}

export interface Environment {
  projectId: string;
  id: string;
  name: string;
  createdAt: string;
}

/** Project roles, most to least powerful. What each may do is defined with governance. */
export const roles = ['admin', 'development_lead', 'developer', 'operations_lead', 'member'] as const;
export type Role = (typeof roles)[number];

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

export interface PostgresConnection {
  host: string;
  port: number;
  database: string;
  user: string;
  /** Stored only server side; never returned, logged or recorded. */
  password?: string;
  ssl?: boolean;
  /** The data source's own statement time-out; ends a run before the 60 s maximum. */
  statementTimeoutMs?: number;
}

export interface DataSource {
  projectId: string;
  id: string;
  name: string;
  kind: 'postgresql';
  /** Connection settings per environment id. */
  environments: Record<string, PostgresConnection>;
  /**
   * Set on the demo data source the embedded runtime seeds: it re-points it at
   * the demo database on every start (that database's port may change).
   * Editing the data source clears the mark.
   */
  managedBy?: 'embedded-demo';
  createdAt: string;
  updatedAt: string;
}

export const parameterKinds = ['text', 'number'] as const;
export type ParameterKind = (typeof parameterKinds)[number];

export interface ParameterDefinition {
  name: string;
  kind: ParameterKind;
  label?: string;
  description?: string;
  required?: boolean;
  default?: string | number;
}

export interface SqlStatement {
  title: string;
  sql: string;
}

export interface Action {
  projectId: string;
  id: string;
  name: string;
  description: string;
  kind: 'sql';
  dataSourceId: string;
  statements: SqlStatement[];
  parameters: ParameterDefinition[];
  version: number;
  createdAt: string;
  updatedAt: string;
}

export type PrincipalKind = 'user' | 'service_account';

/** Who is calling: taken from a verified token, never from the request body. */
export interface Principal {
  kind: PrincipalKind;
  id: string;
  email: string;
  name: string;
}

export type ColumnType = 'string' | 'number' | 'boolean' | 'bigint' | 'json';

export interface Column {
  name: string;
  type: ColumnType;
}

export interface StatementResult {
  title: string;
  status: 'succeeded' | 'failed';
  columns: Column[];
  rows: Record<string, unknown>[];
  rowCount: number;
  messages: string[];
  error?: { code: string; message: string };
}

export type ExecutionStatus = 'running' | 'succeeded' | 'failed' | 'timed_out';

export interface Execution {
  id: string;
  projectId: string;
  environmentId: string;
  actionId: string;
  actionVersion: number;
  status: ExecutionStatus;
  principal: Pick<Principal, 'kind' | 'id' | 'email'>;
  via: 'public_api' | 'console' | 'cron' | 'batch' | 'reservation';
  arguments: Record<string, unknown>;
  startedAt: string;
  finishedAt?: string;
  durationMs?: number;
  /** A summary of each statement: the rows themselves are returned, not stored. */
  statements: { title: string; status: StatementResult['status']; rowCount: number; messages: string[] }[];
  error?: { code: string; message: string };
}
