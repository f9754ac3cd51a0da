/** The data-source kinds the server knows (GET /api/v1/connector-kinds): forms are rendered from them. */
import { api, pathOf } from '../../api/client.ts';
import type { Language } from '../../i18n/index.tsx';

export interface Labels {
  en: string;
  ja: string;
}

export interface FormField {
  name: string;
  type: 'text' | 'textarea' | 'number' | 'boolean' | 'password' | 'select' | 'key-value-list' | 'code';
  label: Labels;
  hint?: Labels;
  required?: boolean;
  secret?: boolean;
  options?: string[];
  default?: unknown;
}

export interface ConnectorKind {
  kind: string;
  actionKind: string;
  label: Labels;
  secretFields: string[];
  authAction: boolean;
  connectionFields: FormField[];
  actionFields: FormField[];
  /** Files the kind keeps as versions per environment (gRPC: protosets); null when none. */
  files?: { name: string; maxBytes: number; pinField: string } | null;
}

export const connectorKindsPath = pathOf`/api/v1/connector-kinds`;

export const loadConnectorKinds = () => api.get<{ data: ConnectorKind[] }>(connectorKindsPath);

export const labelIn = (labels: Labels, language: Language) => labels[language] ?? labels.en;

/** `password` → `hasPassword`: how a read shows that a secret field is set. */
export const presenceField = (field: string) => `has${field[0]?.toUpperCase()}${field.slice(1)}`;

export interface ConnectionTestResult {
  ok: boolean;
  durationMs: number;
  error?: { code: string; message: string };
}

export const testConnectionPath = (projectId: string, dataSourceId: string, environmentId: string) =>
  pathOf`/api/v1/projects/${projectId}/data-sources/${dataSourceId}/environments/${environmentId}/test-connection`;
