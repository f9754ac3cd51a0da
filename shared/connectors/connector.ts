/**
 * What one data-source kind is: its definition (schemas, secret fields, form, permissions,
 * references and save-time checks) and its runtime, `<kind>/runtime.ts`, imported on first use by
 * the functions that run actions only. A kind is one folder under shared/connectors/ plus one line
 * in index.ts (docs/connectors.md, docs/decisions/0022).
 */
import type { z } from 'zod';
import type { ActionInput } from '../domain/definitions/action.ts';
import type { DataSource, StatementResult } from '../domain/model.ts';
import type {
  Catalog,
  ConnectionCheck,
  EngineRun,
  OAuthProvider,
  RowGroupResult,
  RowGroupRun,
} from '../domain/ports.ts';
import type { Network } from './network/bridge-network.ts';

export interface Labels {
  en: string;
  ja: string;
}

/** One input of the console's generated forms. */
export interface FormField {
  /** JSON Pointer-like path below the connection or action, e.g. "host" or "body/type". */
  name: string;
  type: 'text' | 'textarea' | 'number' | 'boolean' | 'password' | 'select' | 'key-value-list' | 'code';
  label: Labels;
  hint?: Labels;
  required?: boolean;
  /** Write-only: stored encrypted, never shown again. */
  secret?: boolean;
  options?: readonly string[];
  default?: unknown;
  /** For code fields: the language shown (sql, json, graphql). */
  language?: string;
  /**
   * Chosen from the data source's catalog (GET …/environments/{environmentId}/catalog): the console
   * offers its entries and fills the action fields an entry names (gRPC: method, request template).
   */
  catalog?: boolean;
}

export interface FormDescriptor {
  connection: readonly FormField[];
  action: readonly FormField[];
  /** The data source may name an authentication action whose result becomes {{ authToken }}. */
  authAction: boolean;
}

/** How a kind reports problems of an action at save time. */
export interface ValidationContext {
  dataSource: DataSource;
  fail(pointer: string, detail: string): void;
  /** Checks that a {{ reference }} names a parameter, vars.*, secrets.*, currentUser.* or authToken. */
  check(reference: string, pointer: string): void;
}

/**
 * A run or check as a runtime gets it: `network` is set when the environment goes through a
 * bridge (`via`); a kind opens its sockets from it then (shared/connectors/network/, docs/bridge.md).
 */
export type RuntimeRun = EngineRun & { network?: Network };
export type RuntimeCheck = ConnectionCheck & { network?: Network };

export interface ConnectorRuntime {
  run(run: RuntimeRun): Promise<StatementResult[]>;
  /** Batch rows as one group in one transaction (SQL kinds that can roll back; decision 0255). */
  runRowGroup?(group: RowGroupRun): Promise<RowGroupResult>;
  /** Resolves when the data source answers; rejects with a DoguError naming what failed. */
  testConnection(check: RuntimeCheck): Promise<void>;
  /** What an action of this data source can call (gRPC: its unary methods); kinds without one omit it. */
  catalog?(check: RuntimeCheck): Promise<Catalog>;
  close?(): Promise<void>;
}

/** Settings the composition root gives every runtime (pool sizes differ per runtime). */
export interface RuntimeSettings {
  poolSize: number;
}

export interface ConnectorDefinition {
  /** The data source kind, e.g. "postgresql". */
  kind: string;
  /** The action kind it runs, e.g. "sql"; several data-source kinds may share one. */
  actionKind: string;
  label: Labels;
  /** One environment's connection settings as the API takes them (secret fields included). */
  connection: z.ZodObject;
  /** The action's own fields beside the common ones (shared/domain/definitions/action.ts). */
  action: z.ZodRawShape;
  /** Connection fields that are write-only: encrypted at rest, never returned. */
  secretFields: readonly string[];
  form: FormDescriptor;
  /** Cloud permissions the executing function needs for this kind (for CDK and docs). */
  cloudPermissions: readonly string[];
  /** Every templated text of an action, as [JSON Pointer, text]. */
  actionTexts(action: ActionInput): [string, string][];
  /** Templated texts of one environment's connection (headers, metadata). */
  connectionTexts?(connection: Record<string, unknown>): string[];
  /** The kind's own save-time checks, beside the common ones. */
  validate?(action: ActionInput, context: ValidationContext): void;
  /** Files a data source of this kind keeps as versions per environment (gRPC: protosets). */
  files?: FileKind;
  /** The kind connects with OAuth (a Connect button; docs/decisions/0041-oauth-connection-seam.md). */
  oauth?: OAuthHook;
  /**
   * The runtime honours `EngineRun.dryRun`: it estimates (BigQuery: bytes) without running. The
   * execute API refuses a dry run of any other kind; the console shows the button only for these.
   */
  dryRun?: boolean;
  /**
   * The runtime honours `EngineRun.preview`: it runs the action in one transaction that it always
   * rolls back and reports per statement the rows affected (SQL kinds whose connector can; decision
   * 0185). It refuses, with a DoguError naming why, statements a rollback cannot undo.
   */
  preview?: boolean;
  /**
   * The runtime opens its connections from `run.network`, so an environment may go through a
   * bridge (`via`, docs/bridge.md). Kinds that call cloud APIs leave it out; `via` is refused for them.
   */
  bridgeable?: boolean;
}

/**
 * How a kind connects with OAuth 2.0 (authorization code + PKCE, offline access). The domain keeps
 * the refresh token encrypted per data source environment; runtimes get it in `connection.oauth`.
 */
export interface OAuthHook {
  /** The provider's endpoints and this data source's client, from one environment's connection. */
  provider(connection: Record<string, unknown>): OAuthProvider;
}

/**
 * What `shared/connectors/<kind>/runtime.ts` exports. The definition never imports it: a module
 * that imports a runtime, even lazily, puts its driver into every bundle that imports the module.
 */
export interface ConnectorRuntimeModule {
  createRuntime(settings: RuntimeSettings): ConnectorRuntime | Promise<ConnectorRuntime>;
}

/** Loads a registered kind's runtime module (shared/connectors/runtimes.ts). */
export type RuntimeLoader = (kind: string) => Promise<ConnectorRuntimeModule>;

export interface FileKind {
  /** What the file is, e.g. "protoset". */
  name: string;
  maxBytes: number;
  /**
   * The connection setting that pins one version (its id); without it the latest version is used.
   * Defaults to `<name>VersionId` (gRPC: `protosetVersionId`).
   */
  pinField?: string;
  /**
   * Parses an uploaded file before it is kept; rejects with a DoguError naming what is wrong;
   * resolves to what is shown of the version (e.g. the services found). A parser with a library
   * of its own lives in `<kind>/files.ts` (`describeFile`) instead, loaded by file-parsers.ts only
   * where files are kept: a dynamic import here would put it into every bundle (decision 0022).
   */
  describe?(bytes: Uint8Array): Promise<Record<string, unknown>>;
}

/** What `shared/connectors/<kind>/files.ts` exports. */
export interface FileParserModule {
  describeFile(bytes: Uint8Array): Promise<Record<string, unknown>>;
}
