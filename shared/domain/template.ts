/**
 * Turns `{{ name }}` references in SQL into driver placeholders. Values are
 * never spliced into the text: each reference becomes `$n` (PostgreSQL) and
 * the value is bound by the driver. Compiling is pure and done once per
 * action version.
 */
import { DoguError } from './errors.ts';

export type Dialect = 'postgresql';

export interface CompiledTemplate {
  text: string;
  /** The reference bound at each placeholder position, in order. */
  references: string[];
}

const reference = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}/g;

export const systemReferences = ['currentUser.id', 'currentUser.name', 'currentUser.email'] as const;

export function referencesIn(template: string): string[] {
  return [...template.matchAll(reference)].map((m) => m[1]!);
}

export function compileSql(sql: string, known: ReadonlySet<string>): CompiledTemplate {
  const references: string[] = [];
  const positions = new Map<string, number>();
  const text = sql.replace(reference, (_match, name: string) => {
    if (!known.has(name)) {
      throw new DoguError(
        'bad_request',
        `The SQL refers to '{{ ${name} }}', which is not a parameter of this action.`,
      );
    }
    let position = positions.get(name);
    if (position === undefined) {
      references.push(name);
      position = references.length;
      positions.set(name, position);
    }
    return `$${position}`;
  });
  return { text, references };
}
