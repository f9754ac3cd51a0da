/**
 * The ports the domain depends on. Adapters (DynamoDB, PostgreSQL, in-process
 * clock) implement them; the domain never imports an adapter.
 */
import type {
  Action,
  Column,
  DataSource,
  Environment,
  Execution,
  Membership,
  PostgresConnection,
  Project,
  User,
} from './model.ts';

export interface DefinitionReader {
  getProject(projectId: string): Promise<Project | undefined>;
  getEnvironment(projectId: string, environmentId: string): Promise<Environment | undefined>;
  getAction(projectId: string, actionId: string): Promise<Action | undefined>;
  getDataSource(projectId: string, dataSourceId: string): Promise<DataSource | undefined>;
  getMembership(projectId: string, principalId: string): Promise<Membership | undefined>;
}

/** Thrown by create* methods when the record already exists (a conditional write failed). */
export class AlreadyExistsError extends Error {
  constructor(what: string) {
    super(`${what} already exists`);
    this.name = 'AlreadyExistsError';
  }
}

export interface Store extends DefinitionReader {
  createProject(project: Project): Promise<void>;
  createEnvironment(environment: Environment): Promise<void>;
  putMembership(membership: Membership): Promise<void>;
  putDataSource(dataSource: DataSource): Promise<void>;
  putAction(action: Action): Promise<void>;

  getUserByEmail(email: string): Promise<User | undefined>;
  /** Creates the user and returns it as stored; AlreadyExistsError when the e-mail address is taken. */
  createUser(user: User): Promise<User>;

  putExecution(execution: Execution): Promise<void>;
  /** Writes many executions in as few requests as the store allows (idempotent per id). */
  putExecutions(executions: Execution[]): Promise<void>;
  getExecution(executionId: string): Promise<Execution | undefined>;

  /** Claims a one-time marker (e.g. a seed); false when it was claimed before. */
  claimMarker(name: string, at: string): Promise<boolean>;
  hasMarker(name: string): Promise<boolean>;
}

/** A statement after templating: text with driver placeholders and the values bound to them. */
export interface CompiledStatement {
  title: string;
  text: string;
  values: unknown[];
}

export interface RawStatementResult {
  columns: Column[];
  rows: Record<string, unknown>[];
  messages: string[];
}

export interface SqlConnector {
  /** Runs one statement in its own transaction. Rejects with DoguError on failure. */
  run(statement: CompiledStatement, options: { signal: AbortSignal }): Promise<RawStatementResult>;
}

export interface ConnectorFactory {
  postgres(key: string, connection: PostgresConnection): SqlConnector;
  close(): Promise<void>;
}

export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  /** Time-ordered, URL-safe id with a readable prefix, e.g. `exe_…`. */
  next(prefix: string): string;
}
