/** The Athena and BigQuery definitions: connection settings checked at save time, SQL actions' rules. */
import { describe, expect, it } from 'vitest';
import { athena } from '../../shared/connectors/athena/index.ts';
import { bigquery } from '../../shared/connectors/bigquery/index.ts';
import type { ConnectorDefinition } from '../../shared/connectors/connector.ts';
import { actionInputSchema, dataSourceInputSchema } from '../../shared/connectors/schemas.ts';
import type { ActionInput } from '../../shared/domain/definitions/action.ts';
import type { DataSource } from '../../shared/domain/model.ts';

const athenaEnvironment = {
  region: 'ap-northeast-1',
  database: 'sales',
  outputLocation: 's3://dogu-results/athena/',
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'secret',
};
const keyText = JSON.stringify({
  type: 'service_account',
  client_email: 'runner@dogu-analytics.iam.gserviceaccount.com',
  private_key: '-----BEGIN PRIVATE KEY-----\nMII...\n-----END PRIVATE KEY-----\n',
  token_uri: 'https://oauth2.googleapis.com/token',
});

const problemsOf = (connector: ConnectorDefinition, action: Record<string, unknown>) => {
  const parsed = actionInputSchema.parse({
    id: 'a',
    name: 'A',
    dataSourceId: 'wh',
    kind: 'sql',
    ...action,
  }) as ActionInput;
  const problems: string[] = [];
  connector.validate?.(parsed, {
    dataSource: { kind: connector.kind } as DataSource,
    fail: (pointer, detail) => problems.push(`${pointer}: ${detail}`),
    check: () => {},
  });
  return problems;
};

describe('data sources', () => {
  const save = (kind: string, environment: Record<string, unknown>) =>
    dataSourceInputSchema.safeParse({
      id: 'wh',
      name: 'Warehouse',
      kind,
      environments: { development: environment },
    });

  it('takes an Athena source and refuses an output location that is not s3://bucket/prefix', () => {
    expect(save('athena', athenaEnvironment).success).toBe(true);
    expect(save('athena', { ...athenaEnvironment, workgroup: 'analysts' }).success).toBe(true);
    for (const outputLocation of ['https://bucket/prefix', 's3://', 's3://UPPER/x', 'bucket/prefix']) {
      const result = save('athena', { ...athenaEnvironment, outputLocation });
      expect(result.success, outputLocation).toBe(false);
      expect(JSON.stringify(result.error?.issues)).toContain('an S3 location such as s3://bucket/prefix/');
    }
    expect(save('athena', { ...athenaEnvironment, region: 'tokyo' }).success).toBe(false);
  });

  it('takes a BigQuery source and refuses a key that is not a service-account key, without echoing it', () => {
    expect(
      save('bigquery', {
        projectId: 'dogu-analytics',
        serviceAccountKey: keyText,
        maximumBytesBilled: 10 ** 10,
      }).success,
    ).toBe(true);
    const wrong = save('bigquery', {
      projectId: 'dogu-analytics',
      serviceAccountKey: '{"api_key":"AIza-canary"}',
    });
    expect(wrong.success).toBe(false);
    expect(JSON.stringify(wrong.error?.issues)).toContain('must be the JSON key file of a service account');
    expect(JSON.stringify(wrong.error?.issues)).not.toContain('AIza-canary');
    expect(save('bigquery', { projectId: 'X', serviceAccountKey: keyText }).success).toBe(false);
    expect(save('bigquery', { projectId: 'dogu-analytics', maximumBytesBilled: 0 }).success).toBe(false);
  });

  it('keeps the keys write-only and names the rights Athena needs', () => {
    expect(athena.secretFields).toEqual(['secretAccessKey']);
    expect(bigquery.secretFields).toEqual(['serviceAccountKey']);
    expect(athena.cloudPermissions).toEqual(
      expect.arrayContaining([
        'athena:StartQueryExecution',
        'athena:StopQueryExecution',
        'glue:GetTable',
        's3:PutObject',
      ]),
    );
    expect(bigquery.cloudPermissions).toEqual([]);
  });
});

describe('SQL actions', () => {
  for (const connector of [athena, bigquery]) {
    it(`${connector.kind}: refuses json, file and system parameters at save time`, () => {
      const problems = problemsOf(connector, {
        statements: [{ title: 'One', sql: 'SELECT {{ a }}, {{ b }}, {{ c }}' }],
        parameters: [
          { name: 'a', kind: 'json' },
          { name: 'b', kind: 'file' },
          { name: 'c', kind: 'system', value: 'currentUser.email' },
        ],
      });
      expect(problems).toEqual([
        '#/parameters/0/kind: the json kind cannot be used in SQL actions (spec 2.2)',
        '#/parameters/1/kind: the file kind cannot be used in SQL actions (spec 2.2)',
        '#/parameters/2/kind: the system kind cannot be used in SQL actions (spec 2.2)',
      ]);
    });
  }

  it('refuses a reference inside a string literal by each dialect’s quoting', () => {
    // Athena (Trino): "…" is a name, '…' a string. BigQuery: both quotes are strings, `…` a name.
    expect(problemsOf(athena, { statements: [{ title: 'T', sql: `SELECT "{{ x }}" FROM t` }] })).toEqual([
      '#/statements/0/sql: {{ x }} stands inside a quoted identifier; values are bound as parameters, so write it without quotes',
    ]);
    expect(problemsOf(bigquery, { statements: [{ title: 'T', sql: `SELECT "{{ x }}" FROM t` }] })).toEqual([
      '#/statements/0/sql: {{ x }} stands inside a string; values are bound as parameters, so write it without quotes',
    ]);
    expect(problemsOf(bigquery, { statements: [{ title: 'T', sql: 'SELECT {{ x }} FROM t' }] })).toEqual([]);
  });
});
