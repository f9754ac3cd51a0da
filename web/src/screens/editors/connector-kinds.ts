/** The data-source kinds the server knows (GET /api/v1/connector-kinds): forms are rendered from them. */
import { api, pathOf } from '../../api/client.ts';
import type { components } from '../../api/openapi.gen.ts';
import type { Language } from '../../i18n/index.tsx';

type Schemas = components['schemas'];

export type Labels = Schemas['Labels'];
export type FormField = Schemas['FormField'];
export type ConnectorKind = Schemas['ConnectorKind'];

export const connectorKindsPath = pathOf`/api/v1/connector-kinds`;

export const loadConnectorKinds = () => api.get<{ data: ConnectorKind[] }>(connectorKindsPath);

export const labelIn = (labels: Labels, language: Language) => labels[language] ?? labels.en;

/** `password` → `hasPassword`: how a read shows that a secret field is set. */
export const presenceField = (field: string) => `has${field[0]?.toUpperCase()}${field.slice(1)}`;

export type ConnectionTestResult = Schemas['ConnectionTestResult'];
export type CatalogEntry = Schemas['DataSourceCatalog']['entries'][number];

export const catalogPath = (projectId: string, dataSourceId: string, environmentId: string) =>
  pathOf`/api/v1/projects/${projectId}/data-sources/${dataSourceId}/environments/${environmentId}/catalog`;

export const loadCatalog = async (projectId: string, dataSourceId: string, environmentId: string) =>
  (await api.get<Schemas['DataSourceCatalog']>(catalogPath(projectId, dataSourceId, environmentId))).entries;

export const testConnectionPath = (projectId: string, dataSourceId: string, environmentId: string) =>
  pathOf`/api/v1/projects/${projectId}/data-sources/${dataSourceId}/environments/${environmentId}/test-connection`;

const oauthBase = (projectId: string, dataSourceId: string, environmentId: string) =>
  pathOf`/api/v1/projects/${projectId}/data-sources/${dataSourceId}/environments/${environmentId}/oauth`;
export const oauthPaths = {
  start: (p: string, d: string, e: string) => `${oauthBase(p, d, e)}/start`,
  disconnect: oauthBase,
};

/** What a read shows of an environment's OAuth connection (never the token). */
export interface OAuthConnectionView {
  account?: string;
  connectedBy: { id: string; email: string };
  connectedAt: string;
  scopes: string[];
  /** The provider refused the stored grant: runs fail until someone connects again. */
  reconnectNeeded?: { since: string; reason: string };
}
