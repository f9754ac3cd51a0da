/**
 * The preview's refusal rules (decision 0185) read SQL as the server does: words inside strings,
 * quoted names and comments never refuse, MySQL's executable comments are code, and what a
 * rollback cannot undo is refused with the reason.
 */
import { describe, expect, it } from 'vitest';
import { mysqlRefusal } from '../../../shared/connectors/mysql/mysql-preview.ts';
import { postgresRefusal } from '../../../shared/connectors/postgresql/postgres-preview.ts';

describe('PostgreSQL preview refusals', () => {
  it.each([
    "UPDATE t SET note = 'COMMIT; ROLLBACK' WHERE id = $1 RETURNING *",
    'UPDATE t SET x = 1 -- then commit\nWHERE id = 1',
    'UPDATE t SET x = 1 /* rollback? */',
    'UPDATE "commit" SET x = 1',
    'CREATE TEMP TABLE x (id int) ON COMMIT DROP',
    'DO $$ BEGIN PERFORM 1; END $$',
    "UPDATE t SET note = E'it\\'s COMMIT'",
    'ALTER TABLE t ADD COLUMN note text',
    "SELECT nextval('s')",
    'SELECT pg_advisory_xact_lock(1)',
  ])('previews %s', (sql) => {
    expect(postgresRefusal(sql)).toBeUndefined();
  });

  it.each([
    ['COMMIT', /^COMMIT would end/],
    ['end', /^END would end/],
    ["PREPARE TRANSACTION 'x'", /^PREPARE would end/],
    ['UPDATE t SET x = 1; COMMIT', /names COMMIT or ROLLBACK/],
    ["COPY t TO '/tmp/x'", /^COPY reads or writes/],
    ["SELECT setval('s', 1)", /^setval acts outside/],
    ["SELECT dblink_exec('host=x', 'DELETE FROM t')", /^dblink_exec acts outside/],
    ['SELECT pg_advisory_lock(1)', /^pg_advisory_lock acts outside/],
    ['VACUUM t', /^VACUUM acts on the server/],
  ])('refuses %s', (sql, reason) => {
    expect(postgresRefusal(sql)).toMatch(reason);
  });
});

describe('MySQL preview refusals', () => {
  it.each([
    "UPDATE t SET note = 'DROP TABLE t; COMMIT' WHERE id = ?",
    "UPDATE t SET note = 'it\\'s' # commit\nWHERE id = 1",
    'DELETE FROM `commit` WHERE id = 1',
    '(SELECT 1) UNION (SELECT 2)',
    'SELECT * FROM t WHERE id = 1 LOCK IN SHARE MODE',
    'REPLACE INTO t VALUES (1)',
  ])('previews %s', (sql) => {
    expect(mysqlRefusal(sql)).toBeUndefined();
  });

  it.each([
    ['ALTER TABLE t ADD COLUMN x int', /^MySQL commits a ALTER/],
    ['TRUNCATE t', /^MySQL commits a TRUNCATE/],
    ['/*!50000 DROP TABLE t */', /^MySQL commits a DROP/],
    ['/*M!100000 CREATE TABLE x (id int) */', /^MySQL commits a CREATE/],
    ['SELECT 1 /*! ; COMMIT */', /names COMMIT or ROLLBACK/],
    ['LOCK TABLES t WRITE', /^LOCK TABLES commits/],
    ['SET GLOBAL max_connections = 1', /^SET changes the session/],
    ['CALL refund(1)', /stored procedure/],
    ["SELECT * FROM t INTO OUTFILE '/tmp/x'", /INTO OUTFILE writes a file/],
    ["SELECT GET_LOCK('x', 1)", /^get_lock acts outside/],
    ['SHOW TABLES', /only SELECT, INSERT/],
  ])('refuses %s', (sql, reason) => {
    expect(mysqlRefusal(sql)).toMatch(reason);
  });
});
