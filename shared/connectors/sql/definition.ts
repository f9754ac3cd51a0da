/** What the SQL kinds (PostgreSQL, MySQL) share: connection and action schemas, form, references, checks. */
import * as z from 'zod';
import type { ActionInput } from '../../domain/definitions/action.ts';
import { kindsRefusedInSql } from '../../domain/definitions/parameter.ts';
import type { ConnectorDefinition, FormField, Labels, ValidationContext } from '../connector.ts';
import { field } from '../form-field.ts';
import type { SqlDialect, SqlSyntax } from './sql-dialect.ts';
import { scanSql } from './sql-scan.ts';

export const sqlConnectionSchema = z.object({
  host: z.string().min(1).max(253),
  port: z.number().int().min(1).max(65535),
  database: z.string().min(1).max(128),
  user: z.string().min(1).max(128),
  /** Write-only: stored encrypted, never returned, logged or recorded. */
  password: z.string().max(1024).optional(),
  ssl: z.boolean().optional(),
  /** The data source's own time-out; ends a run before the 60 s maximum. */
  statementTimeoutMs: z.number().int().min(100).max(60_000).optional(),
});
export type SqlConnection = z.infer<typeof sqlConnectionSchema>;

export const sqlStatementSchema = z.object({
  title: z.string().min(1).max(200),
  sql: z.string().min(1).max(100_000),
  /**
   * A SELECT a preview runs just before and just after this statement, in the same rolled-back
   * transaction, to show the rows before and after (decision 0185). Same {{ parameters }}.
   */
  previewSql: z.string().min(1).max(20_000).optional(),
});

export const sqlActionShape = {
  kind: z.literal('sql'),
  statements: z.array(sqlStatementSchema).min(1).max(20),
  /** JSON columns become objects, arrays or scalars instead of text. */
  parseJsonValues: z.boolean().optional(),
};
export type SqlActionInput = ActionInput & {
  kind: 'sql';
  statements: z.infer<typeof sqlStatementSchema>[];
  parseJsonValues?: boolean;
};

/** Every statement's text, for the references a run must resolve. */
export const sqlActionTexts = (action: ActionInput): [string, string][] =>
  (action as SqlActionInput).statements.flatMap((s, i): [string, string][] => [
    [`#/statements/${i}/sql`, s.sql],
    ...(s.previewSql ? [[`#/statements/${i}/previewSql`, s.previewSql] as [string, string]] : []),
  ]);

/** A preview query only reads: it runs twice around its statement (decision 0185). */
const previewQueryStarts = /^\s*(\(\s*)*(select|with|table|values)\b/i;

/** Save-time checks every SQL kind shares: refused parameter kinds, references placed where a placeholder works. */
export function validateSqlAction(action: ActionInput, context: ValidationContext, syntax: SqlSyntax): void {
  const sql = action as SqlActionInput;
  sql.parameters.forEach((parameter, i) => {
    if (kindsRefusedInSql.includes(parameter.kind))
      context.fail(
        `#/parameters/${i}/kind`,
        `the ${parameter.kind} kind cannot be used in SQL actions (spec 2.2)`,
      );
  });
  sql.statements.forEach((statement, i) => {
    checkReferences(statement.sql, `#/statements/${i}/sql`, context, syntax);
    if (statement.previewSql === undefined) return;
    const pointer = `#/statements/${i}/previewSql`;
    if (!previewQueryStarts.test(statement.previewSql.replace(/^(\s*(--[^\n]*\n|\/\*[\s\S]*?\*\/))*/, '')))
      context.fail(pointer, 'a preview query is a SELECT (or WITH … SELECT): it shows rows, it changes none');
    checkReferences(statement.previewSql, pointer, context, syntax);
  });
}

function checkReferences(text: string, pointer: string, context: ValidationContext, syntax: SqlSyntax) {
  for (const reference of scanSql(text, syntax)) {
    if (reference.insideOf) {
      context.fail(
        pointer,
        `{{ ${reference.name} }} stands inside a ${reference.insideOf}; values are bound as parameters, so write it without quotes`,
      );
    }
    context.check(reference.name, pointer);
  }
}

/** The action form every SQL kind shares. */
export const sqlActionFields: readonly FormField[] = [
  field('statements', 'code', 'Statements', 'ステートメント', { required: true, language: 'sql' }),
  field('parseJsonValues', 'boolean', 'Parse JSON values', 'JSON の値を解析する'),
];

const sqlForm = (defaultPort: number) => ({
  connection: [
    field('host', 'text', 'Host', 'ホスト', { required: true }),
    field('port', 'number', 'Port', 'ポート', { required: true, default: defaultPort }),
    field('database', 'text', 'Database', 'データベース', { required: true }),
    field('user', 'text', 'User', 'ユーザー', { required: true }),
    field('password', 'password', 'Password', 'パスワード', {
      secret: true,
      hint: {
        en: 'Write-only: leave empty to keep the stored password.',
        ja: '書き込み専用です。空のままにすると保存済みのパスワードを使います。',
      },
    }),
    field('ssl', 'boolean', 'Use TLS (SSL)', 'TLS（SSL）を使う'),
    field('statementTimeoutMs', 'number', 'Statement time limit (ms)', 'ステートメントの制限時間（ミリ秒）'),
  ],
  action: sqlActionFields,
  authAction: false,
});

/** A SQL kind: everything but the driver, which its runtime brings. */
export function sqlConnector(options: {
  kind: SqlDialect;
  label: Labels;
  defaultPort: number;
  /** The kind's connector previews in a rolled-back transaction (decision 0185). */
  preview?: boolean;
}): ConnectorDefinition {
  return {
    kind: options.kind,
    actionKind: 'sql',
    label: options.label,
    connection: sqlConnectionSchema,
    action: sqlActionShape,
    secretFields: ['password'],
    form: sqlForm(options.defaultPort),
    cloudPermissions: [],
    bridgeable: true,
    ...(options.preview ? { preview: true } : {}),
    actionTexts: sqlActionTexts,
    validate: (action, context) => validateSqlAction(action, context, options.kind),
  };
}
