/**
 * One JSON object per line on stdout. Callers pass only what is safe to keep: ids, targets,
 * byte counts, durations and reasons. Never a token, a payload byte or a header value.
 */
export type LogFields = Record<string, string | number | boolean | undefined>;

export type BridgeLog = (level: 'info' | 'warn' | 'error', event: string, fields?: LogFields) => void;

export const jsonLog =
  (write: (line: string) => void = (line) => process.stdout.write(line)): BridgeLog =>
  (level, event, fields = {}) =>
    write(`${JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })}\n`);
