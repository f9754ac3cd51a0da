/**
 * What an action does to data (docs/governance.md, decision 0091): `reads` or `changes`. The author may
 * say (`effect` in the definition); otherwise it follows from what Dogu can see in the version being
 * saved, shown or run — never a stored guess that goes stale when the statements change. Unknown means
 * `changes`: the cautious side asks once too often rather than never. Pure: the console imports it too.
 */
import type { ActionInput } from './definitions/action.ts';

export const actionEffects = ['reads', 'changes'] as const;
export type ActionEffect = (typeof actionEffects)[number];

/** The effect an action has: the one it carries, else the default for what it is. */
export const effectOf = (action: ActionInput): ActionEffect =>
  (action.effect as ActionEffect | undefined) ?? defaultEffect(action);

/**
 * SQL whose every statement starts with SELECT, WITH, SHOW, EXPLAIN (or DESCRIBE/VALUES/TABLE) and
 * names no writing keyword outside strings and comments reads (a data-modifying CTE, `SELECT … INTO`
 * and `EXPLAIN ANALYZE DELETE` do not); HTTP GET and HEAD read; storage listings, downloads and signed
 * download links read; Sheets listings and reads read. Everything else changes.
 */
export function defaultEffect(action: ActionInput): ActionEffect {
  switch (action.kind) {
    case 'sql': {
      const statements = (action.statements as { sql?: unknown }[] | undefined) ?? [];
      return statements.length > 0 && statements.every((s) => typeof s.sql === 'string' && sqlReads(s.sql))
        ? 'reads'
        : 'changes';
    }
    case 'http':
      return action.method === 'GET' || action.method === 'HEAD' ? 'reads' : 'changes';
    case 'storage':
      return action.operation === 'list' ||
        action.operation === 'download' ||
        (action.operation === 'signed-url' && (action.method ?? 'GET') === 'GET')
        ? 'reads'
        : 'changes';
    case 'sheets':
      return action.operation === 'list_sheets' || action.operation === 'read_rows' ? 'reads' : 'changes';
    default:
      return 'changes';
  }
}

const readingStarts = new Set(['select', 'with', 'show', 'explain', 'describe', 'desc', 'values', 'table']);
// Words a reading statement cannot hold unless it writes (PostgreSQL's data-modifying WITH, SELECT … INTO,
// EXPLAIN ANALYZE DELETE). Function names such as REPLACE() are left out: they read.
const writingWords = new Set([
  'insert',
  'update',
  'delete',
  'merge',
  'upsert',
  'create',
  'drop',
  'alter',
  'truncate',
  'grant',
  'revoke',
  'call',
  'into',
]);

/** The words of a SQL text outside strings, quoted identifiers, comments and `{{ }}` holes, lower-cased. */
function sqlWords(sql: string): string[] {
  // One pass, left to right, so a quote inside a comment or `--` inside a string is read as what it is.
  const stripped = sql.replace(
    /\{\{[\s\S]*?\}\}|--[^\n]*|\/\*[\s\S]*?\*\/|\$([A-Za-z_]*)\$[\s\S]*?\$\1\$|'(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`/g,
    ' ',
  );
  return stripped.toLowerCase().match(/[a-z_]+/g) ?? [];
}

function sqlReads(sql: string): boolean {
  const words = sqlWords(sql);
  if (words.length === 0 || !readingStarts.has(words[0]!)) return false;
  // `ON UPDATE`/`FOR UPDATE` lock rows but write nothing: the words after FOR/ON are not verbs.
  return !words.some((word, i) => writingWords.has(word) && words[i - 1] !== 'for' && words[i - 1] !== 'on');
}
