/**
 * The words of a compiled SQL statement as the server will read them, for a preview's refusal
 * rules (decision 0185): keywords and names outside strings and comments, upper-cased, and quoted
 * names kept apart. MySQL's executable comments (`/*! … *\/`, `/*M! … *\/`) are code to the server,
 * so their contents are read as code here too; a rule that skipped them could be walked around.
 */
import type { SqlDialect } from './sql-dialect.ts';

export interface SqlWords {
  /** Unquoted words, upper-cased, in order. */
  words: string[];
  /** Quoted names ("x" on PostgreSQL, `x` on MySQL), as written. */
  quotedNames: string[];
}

export function sqlWords(text: string, dialect: SqlDialect): SqlWords {
  const mysql = dialect === 'mysql';
  const words: string[] = [];
  const quotedNames: string[] = [];
  let code = '';
  let i = 0;
  const skipQuoted = (quote: string, backslash: boolean): string => {
    let value = '';
    i++;
    while (i < text.length) {
      const ch = text[i]!;
      if (backslash && ch === '\\') {
        value += text[i + 1] ?? '';
        i += 2;
        continue;
      }
      if (ch === quote) {
        if (text[i + 1] === quote) {
          value += quote;
          i += 2;
          continue;
        }
        i++;
        return value;
      }
      value += ch;
      i++;
    }
    return value;
  };
  while (i < text.length) {
    const ch = text[i]!;
    const next = text[i + 1];
    if (ch === "'") {
      // PostgreSQL's E'' strings take backslash escapes; MySQL's strings always do.
      const escaped = mysql || /[eE]$/.test(code);
      skipQuoted("'", escaped);
      code += ' ';
    } else if (ch === '"') {
      const value = skipQuoted('"', mysql);
      if (!mysql) quotedNames.push(value);
      code += ' ';
    } else if (ch === '`' && mysql) {
      quotedNames.push(skipQuoted('`', false));
      code += ' ';
    } else if (ch === '-' && next === '-') {
      while (i < text.length && text[i] !== '\n') i++;
      code += ' ';
    } else if (ch === '#' && mysql) {
      while (i < text.length && text[i] !== '\n') i++;
      code += ' ';
    } else if (ch === '/' && next === '*') {
      const executable = mysql && /^\/\*M?!\d*/.exec(text.slice(i, i + 12));
      if (executable) {
        // The server runs what is inside: read it, drop only the marker (and the closing */ later).
        i += executable[0].length;
        code += ' ';
        continue;
      }
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      code += ' ';
    } else if (ch === '*' && next === '/' && mysql) {
      i += 2;
      code += ' ';
    } else if (ch === '$' && !mysql) {
      const tag = /^\$[A-Za-z_]*\$/.exec(text.slice(i));
      if (tag && !/[A-Za-z0-9_]/.test(text[i - 1] ?? ' ')) {
        const end = text.indexOf(tag[0], i + tag[0].length);
        i = end < 0 ? text.length : end + tag[0].length;
        code += ' ';
      } else {
        code += ch;
        i++;
      }
    } else {
      code += ch;
      i++;
    }
  }
  for (const word of code.match(/[A-Za-z_][A-Za-z0-9_$]*/g) ?? []) words.push(word.toUpperCase());
  return { words, quotedNames };
}

/** True when `first` is directly followed by `second` somewhere in the words. */
export const hasPair = (words: readonly string[], first: string, second: string): boolean =>
  words.some((word, i) => word === first && words[i + 1] === second);
