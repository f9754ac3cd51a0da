/**
 * Secret values never leave in an error text. A database quotes the value it could not use
 * (`invalid input syntax for type integer: "sk-live-…"`), so every text an engine returns or throws
 * is cleaned here, once, before it is answered, logged or stored — whatever the connector.
 */
import type { StatementResult } from './model.ts';

export const redactedMark = '[secret]';

export class SecretRedactor {
  /** Each secret in the forms an error may quote it in, longest first. */
  private readonly forms: string[];

  constructor(values: Iterable<unknown>) {
    const forms = new Set<string>();
    for (const value of values) {
      if (typeof value !== 'string' || value === '') continue;
      forms.add(value);
      forms.add(JSON.stringify(value).slice(1, -1));
      forms.add(value.replaceAll("'", "''"));
      forms.add(encodeURIComponent(value));
    }
    this.forms = [...forms].sort((a, b) => b.length - a.length);
  }

  get empty(): boolean {
    return this.forms.length === 0;
  }

  text(text: string): string {
    let cleaned = text;
    for (const form of this.forms) cleaned = cleaned.replaceAll(form, redactedMark);
    return cleaned;
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
