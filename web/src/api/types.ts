/**
 * The API shapes the console reads: from the generated OpenAPI types (openapi.gen.ts, `npm run
 * api-types`) where the document names them, the rest declared here until it does.
 */
import type { components } from './openapi.gen.ts';

type Schemas = components['schemas'];

export interface Principal {
  kind: 'user' | 'service_account';
  id: string;
  email?: string;
  name?: string;
}

export interface Session {
  user: Principal;
  csrfToken?: string;
  expiresAt?: number;
}

export type Role = 'admin' | 'development_lead' | 'developer' | 'operations_lead' | 'member';

export interface Project {
  id: string;
  name: string;
  role?: Role;
  createdAt?: string;
  /** Hosts views may load media from and navigate to without asking (decision 0155). */
  allowedHosts?: string[];
}

export interface Environment {
  projectId: string;
  id: string;
  name: string;
  /** Only published versions run or show here (docs/governance.md). */
  protected?: boolean;
}

export interface ListOf<T> {
  data: T[];
}

export type Choice = Schemas['Choice'];

/** A typed {{ parameter }} of an action, as the API takes it. */
export type Parameter = Schemas['Parameter'];

export type ParameterKind = Parameter['kind'];

export interface ActionDefinition {
  id: string;
  name: string;
  description?: string;
  kind: Schemas['ActionInput']['kind'];
  dataSourceId: string;
  parameters: Parameter[];
  review?: { required: boolean; expiresInMinutes?: number };
  /** Reads or changes data (docs/governance.md); a changing one is confirmed before it runs. */
  effect?: 'reads' | 'changes';
  version?: number;
  updatedAt?: string;
}

export interface ActionVersions {
  latest: number;
  versions: { version: number; definition: ActionDefinition; createdAt: string; message?: string }[];
  publications: { environmentId: string; version: number }[];
}

export interface MasterDataList {
  id: string;
  name: string;
  entries: Choice[];
}

export interface ActionGroup {
  id: string;
  name: string;
  actionIds: string[];
}

export type ResultColumn = Schemas['ResultColumn'];
export type ColumnType = ResultColumn['type'];
export type MediaKind = Schemas['MediaKind'];
export type StatementResult = Schemas['StatementResult'];
export type Execution = Schemas['Execution'];
/** What AI agents may see and do over MCP in a project (docs/agents.md). */
export type AgentSettings = Schemas['AgentSettingsOutput'];

export interface ReviewRequested {
  reviewRequest: { id: string; status: string; expiresAt?: string; [key: string]: unknown };
  links: { self: string };
}
