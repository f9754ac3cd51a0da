/** Shapes and paths of the governance API: reviews, versions and publications, action groups, audit log. */
import { pathOf } from '../../api/client.ts';
import type { components } from '../../api/openapi.gen.ts';
import type { ActionDefinition, Parameter } from '../../api/types.ts';

type Schemas = components['schemas'];

export type ReviewStatus = 'pending' | 'approved' | 'executed' | 'rejected' | 'cancelled' | 'expired';
export const reviewStatuses: ReviewStatus[] = [
  'pending',
  'approved',
  'executed',
  'rejected',
  'cancelled',
  'expired',
];

export interface ReviewRequest {
  id: string;
  environmentId: string;
  actionId: string;
  actionVersion: number;
  arguments: Record<string, unknown>;
  requestedBy: { kind: string; id: string; email: string; name: string };
  requestedAt: string;
  expiresAt: string;
  comment?: string;
  status: ReviewStatus;
  decidedBy?: { id: string; email: string };
  decidedAt?: string;
  decisionComment?: string;
  executionId?: string;
  executionError?: { code: string; message: string };
  /** What the write would do, taken at request time (decision 0185). */
  preview?: ReviewPreview;
  /** Taken again when it was approved. */
  previewAtApproval?: ReviewPreview;
  /** Proposed by an AI agent over MCP: its client's self-declared name (docs/agents.md). */
  agent?: { client: string };
}

export type ReviewPreview = Schemas['ReviewPreview'];

export interface ActionVersion {
  version: number;
  definition: ActionDefinition & Record<string, unknown>;
  author: { id: string; email: string };
  createdAt: string;
  message: string;
}

export interface Publication {
  environmentId: string;
  version: number;
  publishedBy?: { id: string; email: string };
  publishedAt?: string;
}

export interface VersionHistory {
  latest: number;
  versions: ActionVersion[];
  publications: Publication[];
}

export interface DefinitionChange {
  path: string;
  before?: unknown;
  after?: unknown;
}

export interface ActionGroupDetail {
  id: string;
  name: string;
  actionIds: string[];
  actions?: { id: string; name: string; description?: string; kind: string; parameters: Parameter[] }[];
  missingActionIds?: string[];
  version?: number;
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: { kind: string; id: string; email?: string };
  event: string;
  target: { type: string; id: string };
  environmentId?: string;
  outcome: 'succeeded' | 'failed' | 'refused';
  details?: Record<string, unknown>;
  chain?: { seq: number; prevHash: string; hash: string };
}

/** What `GET …/audit-log/verification` answers (docs/governance.md). */
export interface AuditVerification {
  ok: boolean;
  checked: number;
  unchained: number;
  last?: { seq: number; entryId: string; hash: string };
  problem?: { kind: 'changed' | 'removed' | 'inserted'; seq?: number; entryId?: string; message: string };
}

const project = (p: string) => pathOf`/api/v1/projects/${p}`;

export const governancePaths = {
  reviews: (p: string) => `${project(p)}/review-requests`,
  review: (p: string, id: string) => `${project(p)}${pathOf`/review-requests/${id}`}`,
  reviewDecision: (p: string, id: string, verb: 'approve' | 'reject' | 'cancel') =>
    `${project(p)}${pathOf`/review-requests/${id}/${verb}`}`,
  versions: (p: string, a: string) => `${project(p)}${pathOf`/actions/${a}/versions`}`,
  diff: (p: string, a: string, from: number, to: number) =>
    `${project(p)}${pathOf`/actions/${a}/diff`}?from=${from}&to=${to}`,
  publication: (p: string, a: string, e: string) => `${project(p)}${pathOf`/actions/${a}/publications/${e}`}`,
  actionGroups: (p: string) => `${project(p)}/action-groups`,
  actionGroup: (p: string, g: string) => `${project(p)}${pathOf`/action-groups/${g}`}`,
  actionGroupOrder: (p: string, g: string) => `${project(p)}${pathOf`/action-groups/${g}/order`}`,
  auditLog: (p: string) => `${project(p)}/audit-log`,
  auditExport: (p: string) => `${project(p)}/audit-log/export`,
  auditVerification: (p: string) => `${project(p)}/audit-log/verification`,
};

/** One environment of a project: `PATCH` changes its name or protection (right `manage_project`). */
export const environmentPath = (projectId: string, environmentId: string) =>
  pathOf`/api/v1/projects/${projectId}/environments/${environmentId}`;
