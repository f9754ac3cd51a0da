/** Which SQL a statement is written in: read by the definitions, the templates and the connectors alike. */
export type SqlDialect = 'postgresql' | 'mysql';

/**
 * How a statement's text is read and written: PostgreSQL binds `$n`, the others `?` in order;
 * MySQL and BigQuery quote names with backticks and strings with either quote (backslash escapes).
 */
export type SqlSyntax = SqlDialect | 'athena' | 'bigquery';
