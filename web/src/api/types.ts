/**
 * The API shapes the console reads. Mirrors of shared/domain (kept separate so the browser
 * bundle never pulls server code); the OpenAPI document at /openapi.json is the reference.
 */

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
}

export interface Environment {
  projectId: string;
  id: string;
  name: string;
}

export interface ListOf<T> {
  data: T[];
}

export interface Choice {
  value: string | number | boolean;
  label: string;
}

interface ParameterCommon {
  name: string;
  label?: string;
  description?: string;
  required?: boolean;
}

interface WithChoices {
  choices?: Choice[];
  masterData?: string;
}

export type Parameter =
  | (ParameterCommon &
      WithChoices & {
        kind: 'text';
        default?: string;
        multiline?: boolean;
        pattern?: string;
        identifier?: boolean;
      })
  | (ParameterCommon &
      WithChoices & { kind: 'number'; default?: number; integer?: boolean; min?: number; max?: number })
  | (ParameterCommon & { kind: 'boolean'; default?: boolean; format?: 'boolean' | 'string' })
  | (ParameterCommon & { kind: 'date'; default?: string; useAsUnixtime?: boolean; withTime?: boolean })
  | (ParameterCommon &
      WithChoices & {
        kind: 'array';
        itemKind: 'text' | 'number';
        format: 'sql' | 'json' | 'delimiter';
        delimiter?: string;
        default?: (string | number)[];
        maxItems?: number;
      })
  | (ParameterCommon & {
      kind: 'tuple';
      items: { kind: 'text' | 'number'; label?: string }[];
      format: 'json' | 'delimiter';
      delimiter?: string;
      default?: (string | number)[];
    })
  | (ParameterCommon & { kind: 'sql'; default?: string })
  | (ParameterCommon & { kind: 'json'; default?: unknown })
  | (ParameterCommon & { kind: 'file'; accept?: string[]; maxBytes?: number })
  | (ParameterCommon & {
      kind: 'system';
      value: 'currentUser.id' | 'currentUser.name' | 'currentUser.email' | 'executionId' | 'now';
    });

export type ParameterKind = Parameter['kind'];

export interface ActionDefinition {
  id: string;
  name: string;
  description?: string;
  kind: 'sql' | 'http';
  dataSourceId: string;
  parameters: Parameter[];
  review?: { required: boolean; expiresInMinutes?: number };
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

export type ColumnType = 'string' | 'number' | 'boolean' | 'bigint' | 'json';
export type MediaKind = 'image' | 'video' | 'pdf';

export interface ResultColumn {
  name: string;
  type: ColumnType;
  media?: MediaKind;
}

export interface StatementResult {
  title?: string;
  status: string;
  columns?: ResultColumn[];
  rows?: Record<string, unknown>[];
  rowCount?: number;
  messages?: string[];
  truncated?: boolean;
  /** Why the statement failed: a server error code and the data source's message. */
  error?: { code: string; message: string };
  /** An HTTP response that is itself an image, video or PDF. */
  media?: { kind: MediaKind; contentType: string; base64: string };
  /** An HTTP response that is JSON but not rows. */
  value?: unknown;
}

export interface Execution {
  id: string;
  status: string;
  actionId: string;
  actionVersion?: number;
  startedAt?: string;
  finishedAt?: string;
  durationMs?: number;
  arguments?: Record<string, unknown>;
  results: StatementResult[];
}

export interface ReviewRequested {
  reviewRequest: { id: string; status: string; expiresAt?: string; [key: string]: unknown };
  links: { self: string };
}
