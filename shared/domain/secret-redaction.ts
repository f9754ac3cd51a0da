/**
 * Secret values never leave in an error text. A database quotes the value it could not use
 * (`invalid input syntax for type integer: "sk-live-…"`), so every text an engine returns or throws
 * is cleaned here, once, before it is answered, logged or stored — whatever the connector.
 */
import type { StatementResult } from './model.ts';

export const redactedMark = '[secret]';

export class SecretRedactor {
  /** Every form of every secret an error may quote, longest first, matched in any letter case. */
  private readonly pattern: RegExp | undefined;

  constructor(values: Iterable<unknown>) {
    const forms = new Set<string>();
    for (const value of values) {
      if (typeof value !== 'string' || value === '') continue;
      for (const form of quotedForms(value)) {
        forms.add(form);
        // PostgreSQL cuts identifiers to 63 bytes (NAMEDATALEN − 1) and quotes the cut name.
        const cut = prefixOfBytes(form, 63);
        if (cut.length >= 8 && cut !== form) forms.add(cut);
      }
    }
    const sorted = [...forms].filter((form) => form !== '').sort((a, b) => b.length - a.length);
    // Case-insensitive: PostgreSQL folds unquoted identifiers (`{{ secrets.k }}::regclass` answers
    // `relation "sk-live-abc" does not exist` for SK-Live-ABC), and other engines upper-case.
    this.pattern = sorted.length ? new RegExp(sorted.map(escapeForRegExp).join('|'), 'giu') : undefined;
  }

  get empty(): boolean {
    return this.pattern === undefined;
  }

  text(text: string): string {
    return this.pattern ? text.replace(this.pattern, redactedMark) : text;
  }

  /**
   * Error texts, messages and script logs of each statement; the rows are the data the action chose
   * to return.
   */
  results(results: StatementResult[]): StatementResult[] {
    if (this.empty) return results;
    return results.map((result) => {
      const logs = (result as { logs?: { level: string; message: string }[] }).logs;
      return {
        ...result,
        messages: result.messages.map((message) => this.text(message)),
        ...(result.error ? { error: { ...result.error, message: this.text(result.error.message) } } : {}),
        ...(logs ? { logs: logs.map((log) => ({ ...log, message: this.text(log.message) })) } : {}),
      };
    });
  }

  /** Cleans a thrown error in place (its type and code stay, for whoever handles it). */
  error<E>(error: E): E {
    if (this.empty || !(error instanceof Error)) return error;
    const record = error as unknown as Record<string, unknown>;
    for (const key of new Set([...Object.keys(error), 'message', 'stack'])) {
      const value = record[key];
      if (typeof value === 'string') record[key] = this.text(value);
      else if (key === 'errors' && Array.isArray(value)) {
        record[key] = value.map((e: { pointer: string; detail: string }) => ({
          ...e,
          detail: this.text(e.detail),
        }));
      }
    }
    if (error.cause instanceof Error) this.error(error.cause);
    return error;
  }
}

/**
 * The value as engines and transports quote it: as is, JSON-escaped, SQL string-quoted (`''`),
 * identifier-quoted (`""`), backslash-escaped (MySQL), URL- and form-encoded, and, for a value
 * written as a quoted identifier (`"Key"`), the name inside the quotes.
 */
function quotedForms(value: string): string[] {
  const forms = [
    value,
    JSON.stringify(value).slice(1, -1),
    value.replaceAll("'", "''"),
    value.replaceAll('"', '""'),
    value.replace(/[\\'"]/g, '\\$&'),
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
  ];
  const quoted = /^"(.+)"$/s.exec(value);
  if (quoted) forms.push(quoted[1]!.replaceAll('""', '"'));
  return forms;
}

const utf8 = new TextEncoder();

/** The longest prefix of `text` within `bytes` UTF-8 bytes (never splitting a character). */
function prefixOfBytes(text: string, bytes: number): string {
  let size = 0;
  let end = 0;
  for (const character of text) {
    size += utf8.encode(character).length;
    if (size > bytes) break;
    end += character.length;
  }
  return text.slice(0, end);
}

const escapeForRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
