/** Shapes and paths of the management API the editor screens use (data sources, actions, variables, secrets). */
import { pathOf } from '../../api/client.ts';

export interface SqlConnection {
  host: string;
  port: number;
  database: string;
  user: string;
  password?: string;
  ssl?: boolean;
  statementTimeoutMs?: number;
}

export interface HttpConnection {
  url: string;
  headers?: { key: string; value: string }[];
  timeoutMs?: number;
}

export interface DataSource {
  id: string;
  name: string;
  description?: string;
  kind: string;
  environments: Record<string, Partial<SqlConnection> & Partial<HttpConnection>>;
  authAction?: { actionId: string; tokenPath?: string; cacheSeconds?: number };
  managedBy?: string;
  updatedAt?: string;
}

export const editorPaths = {
  dataSources: (p: string) => pathOf`/api/v1/projects/${p}/data-sources`,
  dataSource: (p: string, id: string) => pathOf`/api/v1/projects/${p}/data-sources/${id}`,
  actions: (p: string) => pathOf`/api/v1/projects/${p}/actions`,
  action: (p: string, id: string) => pathOf`/api/v1/projects/${p}/actions/${id}`,
  copy: (p: string, id: string) => pathOf`/api/v1/projects/${p}/actions/${id}/copy`,
  variables: (p: string, e: string) => pathOf`/api/v1/projects/${p}/environments/${e}/variables`,
  variable: (p: string, e: string, name: string) =>
    pathOf`/api/v1/projects/${p}/environments/${e}/variables/${name}`,
  secrets: (p: string, e: string) => pathOf`/api/v1/projects/${p}/environments/${e}/secrets`,
  secret: (p: string, e: string, name: string) =>
    pathOf`/api/v1/projects/${p}/environments/${e}/secrets/${name}`,
};
