/**
 * Execution payloads too large to travel inline (decision 0056). Sizes are UTF-8 bytes of JSON, not
 * string lengths (UTF-16 code units): 7.5 MB of Japanese text is 2.5 M characters.
 *
 * - Arguments: a record keeps at most `maxRecordedArgumentBytes` of them (a DynamoDB item holds
 *   400 KB in all); larger ones are kept in the payload store and the record links to them.
 * - Results: an answer (the execution body with its rows) carries at most `maxInlineResponseBytes`,
 *   counted as the body travels inside a Lambda response (a JSON string, so quotes and backslashes
 *   count twice). Lambda and API Gateway refuse responses over 6 MB; the rest is headroom for the
 *   envelope and headers. Larger results are kept in the payload store and answered by link.
 */
import type { Execution, StatementResult, StoredPayload } from './model.ts';
import type { PayloadStore } from './ports.ts';

export const maxRecordedArgumentBytes = 64 * 1024;
export const maxInlineResponseBytes = 5 * 1024 * 1024 + 512 * 1024;

export type PayloadPart = 'arguments' | 'results';
export const payloadParts: readonly PayloadPart[] = ['arguments', 'results'];

export const payloadKey = (executionId: string, part: PayloadPart) =>
  `executions/${executionId}/${part}.json`;

/** The API path that serves a stored payload (authorised like the execution itself). */
export const payloadLink = (
  execution: Pick<Execution, 'projectId' | 'environmentId' | 'id'>,
  part: PayloadPart,
) =>
  `/public/v1/projects/${execution.projectId}/environments/${execution.environmentId}/executions/${execution.id}/payloads/${part}`;

export const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** Size of a value's JSON as it travels inside another JSON document (a Lambda response body). */
export const enveloped = (json: string) => {
  let extra = 2;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x22 || c === 0x5c) extra += 1;
    else if (c < 0x20) extra += 5;
  }
  return utf8Bytes(json) + extra;
};

/**
 * The arguments a record keeps: as given when small; otherwise `{}` and the payload kept in the
 * store (or, with no store, only its size noted).
 */
export async function recordableArguments(
  payloads: PayloadStore | undefined,
  executionId: string,
  args: Record<string, unknown>,
): Promise<{ arguments: Record<string, unknown>; payload?: StoredPayload }> {
  const json = JSON.stringify(args);
  const bytes = utf8Bytes(json);
  if (bytes <= maxRecordedArgumentBytes) return { arguments: args };
  if (!payloads) return { arguments: {}, payload: { bytes, stored: false } };
  await payloads.put(payloadKey(executionId, 'arguments'), Buffer.from(json, 'utf8'));
  return { arguments: {}, payload: { bytes, stored: true } };
}

/**
 * Keeps the results in the payload store when the answer they would make is over the budget.
 * `bodyWithoutRows` is the rest of the answer (its size counts against the same budget).
 */
export async function storeLargeResults(
  payloads: PayloadStore | undefined,
  executionId: string,
  results: StatementResult[],
  bodyWithoutRows: unknown,
): Promise<StoredPayload | undefined> {
  const json = JSON.stringify(results);
  const rest = enveloped(JSON.stringify(bodyWithoutRows));
  // Cheap first: escaping adds at most 5 bytes a character, so a small result needs no counting.
  if (utf8Bytes(json) + 5 * json.length + 2 + rest <= maxInlineResponseBytes) return undefined;
  if (enveloped(json) + rest <= maxInlineResponseBytes) return undefined;
  if (!payloads) return undefined;
  const bytes = Buffer.from(json, 'utf8');
  await payloads.put(payloadKey(executionId, 'results'), bytes);
  return { bytes: bytes.byteLength, stored: true };
}
