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
  /** Its place in the project's hash chain (decision 0180); set by the audit log when appended. */
  chain?: ChainLink;
}

/** An entry's link in its project's hash chain (shared/domain/audit-chain/link.ts). */
export interface ChainLink {
  /** 1 for a project's first chained entry, then one more per entry. */
  seq: number;
  /** SHA-256 (hex) of the entry before; 64 zeros for the first. */
  prevHash: string;
  /** SHA-256 (hex) of this entry's canonical JSON with `chain` holding `seq` and `prevHash`. */
  hash: string;
}

/** The latest entry of a project's chain: what the next entry links to, and what anchors record. */
export interface ChainHead {
  projectId: string;
  seq: number;
  hash: string;
  /** The id and time of the entry at the head, so a verifier can say which one is missing. */
  entryId: string;
  at: string;
}

/** A page of a project's entries oldest first, as stored, for checking the chain. */
export interface ChainPageQuery {
  projectId: string;
  limit?: number;
  cursor?: string;
}

export interface ChainPage {
  entries: AuditEntry[];
  nextCursor?: string;
  /** The project's chain head as the store holds it now (none before the first chained entry). */
  head?: ChainHead;
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
  /** Oldest first (by time, then id), every entry of the project, with the chain head. */
  chainPage(query: ChainPageQuery): Promise<ChainPage>;
  /** The project's chain head, or none before its first chained entry. */
  head(projectId: string): Promise<ChainHead | undefined>;
  /** Every project's chain head: what anchoring records. */
  heads(): Promise<ChainHead[]>;
}

/** Bound to one request: use cases record what they did without knowing about HTTP. */
export interface AuditRecorder {
  record(entry: Omit<AuditEntry, 'id' | 'at' | 'actor' | 'origin'>): Promise<void>;
}
