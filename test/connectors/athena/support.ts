/** Runs for the Athena tests: an action of titled statements on a data source, as the engines pass it. */
import type { Action, DataSource } from '../../../shared/domain/model.ts';
import type { EngineRun } from '../../../shared/domain/ports.ts';

export const athenaConnection = {
  region: 'ap-northeast-1',
  database: 'sales',
  outputLocation: 's3://dogu-results/athena/',
  workgroup: 'analysts',
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};

export function sqlRun(input: {
  kind: string;
  statements: { title: string; sql: string }[];
  parameters?: Record<string, unknown>[];
  values?: Record<string, unknown>;
  parseJsonValues?: boolean;
  connection: Record<string, unknown>;
  signal?: AbortSignal;
}): EngineRun {
  const action = {
    id: 'report',
    name: 'Report',
    kind: 'sql',
    statements: input.statements,
    parameters: input.parameters ?? [],
    parseJsonValues: input.parseJsonValues ?? false,
  } as unknown as Action;
  const dataSource = {
    id: 'wh',
    name: 'Warehouse',
    kind: input.kind,
    environments: {},
  } as unknown as DataSource;
  return {
    action,
    dataSource,
    environmentId: 'development',
    connection: input.connection,
    key: `p/wh/${Math.random()}`,
    values: input.values ?? {},
    signal: input.signal ?? AbortSignal.timeout(10_000),
    deadlineAt: Date.now() + 10_000,
    callAction: async () => [],
  };
}
