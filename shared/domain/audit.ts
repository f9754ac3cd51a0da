/**
 * The audit log: who did what, when, from where. Append-only; secrets never
 * enter it (details hold ids, names and changed field names, not values of
 * secrets or passwords).
 */
import type { PrincipalKind } from './model.ts';

export interface AuditActor {
  /** `upload_token`: the protoset upload API, authenticated by a project's upload token (its id). */
  kind: PrincipalKind | 'system' | 'upload_token';
  id: string;
  email: string;
}

/** Where a request came from, as the HTTP layer saw it. */
export interface RequestOrigin {
  sourceIp: string;
  userAgent: string;
}

export interface AuditEntry {
  id: string;
  projectId: string;
  /** ISO 8601. */
  at: string;
  actor: AuditActor;
  origin?: RequestOrigin;
  /** What happened, `<resource>.<verb>`: `action.update`, `execution.run`, `review.approve`, `login`… */
  event: string;
  target: { type: string; id: string };
  environmentId?: string;
  /** Outcome: most entries succeed; refused executions and failed runs are recorded too. */
  outcome: 'succeeded' | 'failed' | 'refused';
  details?: Record<string, unknown>;
}

export interface AuditQuery {
  projectId: string;
  actorId?: string;
  /** An exact event (`action.update`) or a resource prefix (`action.`). */
  event?: string;
  targetId?: string;
  from?: string;
  to?: string;
  limit?: number;
  /** Opaque, from a previous page. */
  cursor?: string;
}

export interface AuditLog {
  append(entry: AuditEntry): Promise<void>;
  /** Newest first. */
  list(query: AuditQuery): Promise<{ entries: AuditEntry[]; nextCursor?: string }>;
}

/** Bound to one request: use cases record what they did without knowing about HTTP. */
export interface AuditRecorder {
  record(entry: Omit<AuditEntry, 'id' | 'at' | 'actor' | 'origin'>): Promise<void>;
}
