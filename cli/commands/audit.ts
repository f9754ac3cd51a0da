/**
 * `dogu audit verify` and `dogu audit export` (docs/governance.md, "Tamper-evident audit log").
 * Verification happens here, on the caller's machine: the API only hands over the entries with their
 * hashes (`/audit-log/chain`), so a server that was tampered with cannot simply answer "OK".
 */
import { writeFile } from 'node:fs/promises';
import type { AuditEntry, ChainHead } from '../../shared/domain/audit.ts';
import { type ChainVerification, ChainVerifier } from '../../shared/domain/audit-chain/verify.ts';
import { ApiError, callApi, unreachable } from '../api-client.ts';
import { accessToken } from './print-access-token.ts';

export interface AuditCommandOptions {
  baseUrl: string;
  project: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const auditPath = (options: AuditCommandOptions, tail: string) =>
  new URL(
    `/api/v1/projects/${encodeURIComponent(options.project)}/audit-log/${tail}`,
    options.baseUrl,
  ).toString();

interface ChainPageBody {
  data: AuditEntry[];
  has_more: boolean;
  next_cursor?: string;
  head?: ChainHead;
}

/** Exit 0 when the chain holds, 1 naming the first entry changed, removed or inserted. */
export async function auditVerify(options: AuditCommandOptions & { from?: string }): Promise<number> {
  const { token } = await accessToken();
  const verifier = new ChainVerifier(options.from);
  let cursor: string | undefined;
  let head: ChainHead | undefined;
  do {
    const query = new URLSearchParams({ limit: '1000', ...(cursor ? { cursor } : {}) });
    const page = (await callApi(`${auditPath(options, 'chain')}?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    })) as ChainPageBody;
    head = page.head;
    if (!page.data.every((entry) => verifier.add(entry))) break;
    cursor = page.has_more ? page.next_cursor : undefined;
  } while (cursor);
  const result = verifier.finish(head);
  report(result, options);
  return result.ok ? 0 : 1;
}

function report(result: ChainVerification, options: AuditCommandOptions): void {
  const before = result.unchained > 0 ? ` (${result.unchained} older entries predate the chain)` : '';
  if (result.ok) {
    const last = result.last ? `; head #${result.last.seq} ${result.last.hash}` : '';
    options.stdout(`OK: ${result.checked} entries of ${options.project} checked${last}${before}.\n`);
    return;
  }
  const problem = result.problem!;
  options.stdout(`FAILED (${problem.kind}): ${problem.message}\n`);
  options.stderr(`${result.checked} entries were good before it${before}.\n`);
}

export type AuditExportFormat = 'csv' | 'jsonl' | 'json';

/** Every matching entry with its hashes, to a file (-o) or stdout. */
export async function auditExport(
  options: AuditCommandOptions & { format: string; output?: string; from?: string; to?: string },
): Promise<number> {
  if (!['csv', 'jsonl', 'json'].includes(options.format)) {
    throw new Error(`--format must be csv, jsonl or json (not '${options.format}').`);
  }
  const { token } = await accessToken();
  const query = new URLSearchParams({
    format: options.format,
    ...(options.from ? { from: options.from } : {}),
    ...(options.to ? { to: options.to } : {}),
  });
  const url = `${auditPath(options, 'export')}?${query}`;
  let response: Response;
  try {
    response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  } catch (error) {
    throw new ApiError(
      0,
      unreachable(new URL(url).origin, (error as { cause?: { code?: string } }).cause?.code),
    );
  }
  if (!response.ok) {
    // The same readable error as every other command: Problem Details through callApi's wording.
    await callApi(url, { headers: { authorization: `Bearer ${token}` } });
  }
  const text = await response.text();
  const count = response.headers.get('x-dogu-entry-count') ?? '?';
  if (options.output) {
    await writeFile(options.output, text, { mode: 0o600 });
    options.stderr(`Wrote ${count} entries to ${options.output}.\n`);
  } else {
    options.stdout(text);
  }
  return 0;
}
