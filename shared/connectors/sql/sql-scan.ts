/**
 * Finds `{{ references }}` in SQL text and tells whether each stands inside a
 * string literal, quoted identifier or comment, where a placeholder would not
 * work (`'{{ x }}'` would become the literal text '$1'). Knows single quotes
 * with '' escapes, E'' backslash escapes, double quotes, backticks, PostgreSQL
 * dollar quotes, -- and /* comments.
 */
export interface Reference {
  name: string;
  start: number;
  end: number;
  /** Where the reference sits when not in plain SQL. */
  insideOf?: 'string' | 'quoted identifier' | 'comment';
}

const referencePattern = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}/y;

/** MySQL and BigQuery strings take backslash escapes and "double quotes" delimit strings, not names. */
export function scanSql(
  sql: string,
  dialect: 'postgresql' | 'mysql' | 'athena' | 'bigquery' = 'postgresql',
): Reference[] {
  const mysql = dialect === 'mysql' || dialect === 'bigquery';
  const references: Reference[] = [];
  let context: Reference['insideOf'];
  let closer = '';
  let backslashEscapes = false;
  for (let i = 0; i < sql.length; i++) {
    if (sql.startsWith('{{', i)) {
      referencePattern.lastIndex = i;
      const match = referencePattern.exec(sql);
      if (match) {
        references.push({
          name: match[1]!,
          start: i,
          end: i + match[0].length,
          ...(context ? { insideOf: context } : {}),
        });
        i += match[0].length - 1;
        continue;
      }
    }
    const ch = sql[i]!;
    if (context) {
      if (backslashEscapes && ch === '\\') {
        i++;
        continue;
      }
      if (sql.startsWith(closer, i)) {
        // '' inside a string and "" inside an identifier are escapes, not the end.
        if ((closer === "'" || closer === '"' || closer === '`') && sql[i + 1] === closer) {
          i++;
          continue;
        }
        i += closer.length - 1;
        context = undefined;
        backslashEscapes = false;
      }
      continue;
    }
    if (ch === "'" || (mysql && ch === '"')) {
      context = 'string';
      closer = ch;
      backslashEscapes =
        mysql || (i > 0 && /[eE]/.test(sql[i - 1]!) && !/[A-Za-z0-9_]/.test(sql[i - 2] ?? ' '));
    } else if (ch === '"' || ch === '`') {
      context = 'quoted identifier';
      closer = ch;
    } else if (ch === '-' && sql[i + 1] === '-') {
      context = 'comment';
      closer = '\n';
    } else if (ch === '/' && sql[i + 1] === '*') {
      context = 'comment';
      closer = '*/';
      i++;
    } else if (ch === '#' && mysql) {
      context = 'comment';
      closer = '\n';
    } else if (ch === '$' && !mysql) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i));
      if (tag && !/[A-Za-z0-9_]/.test(sql[i - 1] ?? ' ')) {
        context = 'string';
        closer = tag[0];
        i += tag[0].length - 1;
      }
    }
  }
  return references;
}
