import { inexactMessage, parseExactJson } from '../../shared/domain/exact-numbers.ts';
import { callApi } from '../api-client.ts';
import { accessToken } from './print-access-token.ts';

/** `key=value` pairs; a value that parses as JSON (5, true, "x", [1]) is sent as that JSON value. */
export function parseArgumentPairs(pairs: string[]): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`--arg '${pair}' must look like name=value.`);
    const raw = pair.slice(at + 1);
    let value: unknown = raw;
    const parsed = parseExactJson(raw);
    if (parsed.ok) value = parsed.value;
    else if (parsed.inexact) {
      // Decision 0025: sent rounded, 9007199254740993 would be another id; quoted, it is text.
      throw new Error(
        `--arg '${pair.slice(0, at)}': ${inexactMessage(parsed.inexact)} Quote it to send it as text: ${pair.slice(0, at)}='"${parsed.inexact.literal}"'.`,
      );
    }
    args[pair.slice(0, at)] = value;
  }
  return args;
}

export async function execute(options: {
  baseUrl: string;
  project: string;
  environment: string;
  action: string;
  args: Record<string, unknown>;
  /** Run in a transaction that is rolled back and report what it would do (docs/governance.md). */
  preview?: boolean;
}): Promise<unknown> {
  const { token } = await accessToken();
  const path = [
    'public/v1/projects',
    options.project,
    'environments',
    options.environment,
    'actions',
    options.action,
  ]
    .map((segment, i) => (i % 2 === 0 ? segment : encodeURIComponent(segment)))
    .join('/');
  return callApi(new URL(`/${path}/executions`, options.baseUrl).toString(), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ arguments: options.args, ...(options.preview ? { preview: true } : {}) }),
  });
}
