/**
 * Reading the audit log: one page at a time for the UI, or everything that
 * matches as a download (CSV for spreadsheets, JSON for tools). Needs the
 * right 'view_audit'. Queries are checked here so every caller gets a 400
 * naming the parameter instead of an adapter error (the cursor is opaque here;
 * the adapter refuses a forged one, also as a 400).
 *
 * CSV comes from the HTTP layer's `resultToCsv` so audit downloads escape
 * formulas exactly as result downloads do.
 */

import { resultToCsv } from '../../http/csv.ts';
import type { AuditEntry, AuditLog, AuditQuery, ChainHead, ChainPage } from '../audit.ts';
import { type ChainVerification, ChainVerifier } from '../audit-chain/verify.ts';
import { parseIsoDateTime } from '../dates.ts';
import { DoguError } from '../errors.ts';
import type { Column, Principal } from '../model.ts';
import type { Store } from '../ports.ts';
import { maxResultBytes } from '../result-limits.ts';
import { authorize } from './access.ts';

export interface AuditDeps {
  store: Pick<Store, 'getMembership' | 'getProject' | 'listUserGroupsOfPrincipal'>;
  audit: AuditLog;
}

export const maxAuditLimit = 1000;
export interface ExportLimits {
  /** The most entries one export holds; past it the caller is asked to narrow the time range. */
  maxEntries: number;
  maxBytes: number;
}
export const exportLimits: ExportLimits = { maxEntries: 100_000, maxBytes: maxResultBytes };

export type AuditFilters = Omit<AuditQuery, 'limit' | 'cursor'>;
export type ExportFormat = 'csv' | 'json' | 'jsonl';

export async function listAudit(
  deps: AuditDeps,
  principal: Principal,
  query: AuditQuery,
): Promise<{ entries: AuditEntry[]; nextCursor?: string }> {
  const checked = checkQuery(query);
  await authorize(deps.store, principal, query.projectId, 'view_audit');
  return deps.audit.list(checked);
}

/**
 * Every entry that matches, newest first, rendered as one document. Refused (413) past 100,000
 * entries or 5 MB of text (`maxResultBytes`: a Lambda response carries at most 6 MB, and the
 * embedded runtime holds the same limit), so an export is never silently incomplete.
 */
export async function exportAudit(
  deps: AuditDeps,
  principal: Principal,
  filters: AuditFilters,
  format: ExportFormat,
  limits: ExportLimits = exportLimits,
): Promise<{ text: string; entryCount: number }> {
  const query = checkQuery({ ...filters, limit: maxAuditLimit });
  await authorize(deps.store, principal, filters.projectId, 'view_audit');
  const document =
    format === 'csv' ? csvDocument() : format === 'json' ? jsonDocument() : jsonLinesDocument();
  let entryCount = 0;
  let cursor: string | undefined;
  do {
    const page = await deps.audit.list({ ...query, ...(cursor === undefined ? {} : { cursor }) });
    entryCount += page.entries.length;
    if (entryCount > limits.maxEntries) {
      throw tooLarge(limits, `More than ${limits.maxEntries.toLocaleString('en')} audit entries match`);
    }
    document.add(page.entries);
    if (document.bytes() > limits.maxBytes) {
      throw tooLarge(limits, `The export would exceed ${(limits.maxBytes / 1024 / 1024).toFixed(1)} MB`);
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return { text: document.text(), entryCount };
}

const tooLarge = (limits: ExportLimits, reason: string) =>
  new DoguError(
    'payload_too_large',
    `${reason}: narrow the time range with 'from' and 'to' (or filter) and export in parts.`,
    { extra: { maxEntries: limits.maxEntries, maxBytes: limits.maxBytes } },
  );

/** The export's columns, in order: who, from where, what, on what, with what outcome. */
export const exportColumns = [
  'at',
  'actor_kind',
  'actor_id',
  'actor_email',
  'source_ip',
  'user_agent',
  'event',
  'target_type',
  'target_id',
  'environment',
  'outcome',
  'details',
  'seq',
  'prev_hash',
  'hash',
] as const;

type ExportRow = Record<(typeof exportColumns)[number], unknown>;

/** One flat row per entry; `details` stays an object (JSON in its CSV cell). */
export function exportRowOf(entry: AuditEntry): ExportRow {
  return {
    at: entry.at,
    actor_kind: entry.actor.kind,
    actor_id: entry.actor.id,
    actor_email: entry.actor.email,
    source_ip: entry.origin?.sourceIp ?? null,
    user_agent: entry.origin?.userAgent ?? null,
    event: entry.event,
    target_type: entry.target.type,
    target_id: entry.target.id,
    environment: entry.environmentId ?? null,
    outcome: entry.outcome,
    details: entry.details ?? null,
    seq: entry.chain?.seq ?? null,
    prev_hash: entry.chain?.prevHash ?? null,
    hash: entry.chain?.hash ?? null,
  };
}

const csvColumns: Column[] = exportColumns.map((name) => ({
  name,
  type: name === 'details' ? 'json' : name === 'seq' ? 'number' : 'string',
}));

interface Document {
  add(entries: AuditEntry[]): void;
  bytes(): number;
  text(): string;
}

/**
 * CSV rendered page by page so its size is known as it grows. Formula escaping is always on:
 * user agents, e-mail addresses and names in an audit log come from callers and may be crafted.
 */
function csvDocument(): Document {
  const header = resultToCsv({ columns: csvColumns, rows: [] }, { escapeFormulas: true });
  const parts = [header];
  let bytes = Buffer.byteLength(header);
  return {
    add(entries) {
      if (entries.length === 0) return;
      const rows = entries.map(exportRowOf);
      // Each page renders with its own BOM and header row; keep only the records.
      const records = resultToCsv({ columns: csvColumns, rows }, { escapeFormulas: true }).slice(
        header.length,
      );
      parts.push(records);
      bytes += Buffer.byteLength(records);
    },
    bytes: () => bytes,
    text: () => parts.join(''),
  };
}

/** `{"data": [rows]}`: the same flat rows as the CSV, for tools. */
function jsonDocument(): Document {
  const rows: string[] = [];
  let bytes = '{"data":[]}'.length;
  return {
    add(entries) {
      for (const entry of entries) {
        const row = JSON.stringify(exportRowOf(entry));
        bytes += Buffer.byteLength(row) + (rows.length > 0 ? 1 : 0);
        rows.push(row);
      }
    },
    bytes: () => bytes,
    text: () => `{"data":[${rows.join(',')}]}`,
  };
}

/**
 * One stored entry per line, exactly as stored and hashed (chain included): what an auditor's
 * offline check reads (docs/governance.md, "Checking an export offline").
 */
function jsonLinesDocument(): Document {
  const lines: string[] = [];
  let bytes = 0;
  return {
    add(entries) {
      for (const entry of entries) {
        const line = JSON.stringify(entry);
        bytes += Buffer.byteLength(line) + 1;
        lines.push(line);
      }
    },
    bytes: () => bytes,
    text: () => lines.map((line) => `${line}\n`).join(''),
  };
}

/** One page of every entry of a project, oldest first, with hashes: what `dogu audit verify` checks. */
export async function readAuditChain(
  deps: AuditDeps,
  principal: Principal,
  query: { projectId: string; limit?: number; cursor?: string },
): Promise<ChainPage> {
  const limit = query.limit;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > maxAuditLimit)) {
    throw invalid('limit', `'limit' must be a whole number from 1 to ${maxAuditLimit}.`);
  }
  await authorize(deps.store, principal, query.projectId, 'view_audit');
  return deps.audit.chainPage(query);
}

/** The most entries one verification in a request reads; past it the CLI (which pages) is the way. */
export const maxVerifiedInRequest = 200_000;

/**
 * Checks a project's whole chain on the server, for the console's "Verify": the same check as
 * `dogu audit verify`, which does it on the caller's machine through `readAuditChain`.
 */
export async function verifyAuditChain(
  deps: AuditDeps,
  principal: Principal,
  query: { projectId: string; fromId?: string },
): Promise<ChainVerification & { head?: ChainHead }> {
  if (query.fromId !== undefined && (query.fromId === '' || query.fromId.length > maxFilterLength)) {
    throw invalid('from', `'from' must be an entry id of 1 to ${maxFilterLength} characters.`);
  }
  await authorize(deps.store, principal, query.projectId, 'view_audit');
  const verifier = new ChainVerifier(query.fromId);
  let cursor: string | undefined;
  let head: ChainHead | undefined;
  let read = 0;
  do {
    const page = await deps.audit.chainPage({
      projectId: query.projectId,
      limit: maxAuditLimit,
      ...(cursor === undefined ? {} : { cursor }),
    });
    head = page.head;
    read += page.entries.length;
    if (read > maxVerifiedInRequest) {
      throw new DoguError(
        'payload_too_large',
        `More than ${maxVerifiedInRequest.toLocaleString('en')} entries: verify with 'dogu audit verify', which pages.`,
      );
    }
    if (!page.entries.every((entry) => verifier.add(entry))) break;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  const result = verifier.finish(head);
  return { ...result, ...(head ? { head } : {}) };
}

const maxFilterLength = 200;

/** The query with times written as `toISOString()` writes them, or a 400 naming the parameter. */
function checkQuery(query: AuditQuery): AuditQuery {
  for (const [parameter, value] of [
    ['actor', query.actorId],
    ['event', query.event],
    ['target', query.targetId],
  ] as const) {
    if (value !== undefined && (value === '' || value.length > maxFilterLength)) {
      throw invalid(parameter, `'${parameter}' must be 1 to ${maxFilterLength} characters.`);
    }
  }
  const from = query.from === undefined ? undefined : parseTime(query.from, 'from', 'start');
  const to = query.to === undefined ? undefined : parseTime(query.to, 'to', 'end');
  if (from !== undefined && to !== undefined && from > to) {
    throw invalid('from', `'from' (${from}) is after 'to' (${to}).`);
  }
  const limit = query.limit;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > maxAuditLimit)) {
    throw invalid('limit', `'limit' must be a whole number from 1 to ${maxAuditLimit}.`);
  }
  return {
    ...query,
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
  };
}

const invalid = (parameter: string, message: string) =>
  new DoguError('bad_request', message, { extra: { parameter } });

/**
 * An ISO 8601 date or date-time with a zone (`Z` or `+09:00`), read by dates.ts; a time without a
 * zone would depend on the server's. A bare date is that whole UTC day: its start for `from`, its
 * end for `to`.
 */
function parseTime(value: string, parameter: string, edge: 'start' | 'end'): string {
  const parsed = parseIsoDateTime(value);
  const message = `'${parameter}' must be an ISO 8601 date or date-time with a zone, such as 2026-11-22 or 2026-11-22T09:30:00Z.`;
  if (typeof parsed === 'string' || (parsed.hasTime && !parsed.hasZone)) throw invalid(parameter, message);
  const time = !parsed.hasTime && edge === 'end' ? parsed.time + 86_400_000 - 1 : parsed.time;
  return new Date(time).toISOString();
}
