/**
 * The registry and the engines over it: every kind's definition is complete and valid, request
 * schemas come from it, and a kind's runtime (with its driver) is loaded only on first use.
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ConnectorDefinition, ConnectorRuntimeModule } from '../../shared/connectors/connector.ts';
import { createActionEngines } from '../../shared/connectors/engines.ts';
import { connectors } from '../../shared/connectors/index.ts';
import { loadConnectorRuntime } from '../../shared/connectors/runtimes.ts';
import { actionInputSchema, dataSourceInputSchema } from '../../shared/connectors/schemas.ts';
import type { Action, DataSource } from '../../shared/domain/model.ts';

describe('the registry', () => {
  it('holds each kind once, each with labels, forms and secret fields its schema knows', () => {
    const kinds = connectors.map((c) => c.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const c of connectors) {
      expect(c.label.en && c.label.ja, c.kind).toBeTruthy();
      for (const field of [...c.form.connection, ...c.form.action]) {
        expect(field.label.en && field.label.ja, `${c.kind}.${field.name}`).toBeTruthy();
      }
      const shape = c.connection.shape as Record<string, unknown>;
      for (const secret of c.secretFields) expect(shape[secret], `${c.kind}.${secret}`).toBeDefined();
      for (const field of c.form.connection)
        expect(shape[field.name], `${c.kind}.${field.name}`).toBeDefined();
      expect((c.action.kind as z.ZodLiteral).value).toBe(c.actionKind);
    }
  });

  it('builds the request schemas from the kinds: a data source of each kind, an unknown kind refused', () => {
    const pg = dataSourceInputSchema.safeParse({
      id: 'a',
      name: 'A',
      kind: 'postgresql',
      environments: { dev: { host: 'h', port: 5432, database: 'd', user: 'u' } },
    });
    expect(pg.success).toBe(true);
    const unknown = dataSourceInputSchema.safeParse({ id: 'a', name: 'A', kind: 'oracle', environments: {} });
    expect(unknown.success).toBe(false);
    const http = actionInputSchema.parse({
      id: 'a',
      name: 'A',
      kind: 'http',
      dataSourceId: 'x',
      method: 'GET',
    });
    expect(http).toMatchObject({ path: '', headers: [], body: { type: 'none' } });
    // authAction only where the kind takes one
    const sqlWithAuth = dataSourceInputSchema.parse({
      id: 'a',
      name: 'A',
      kind: 'mysql',
      authAction: { actionId: 'login' },
      environments: { dev: { host: 'h', port: 3306, database: 'd', user: 'u' } },
    });
    expect(sqlWithAuth.authAction).toBeUndefined();
  });

  it('keeps every driver out of the registry and engines, and gives each kind a lazy chunk of its own', async () => {
    const definitions = [
      'shared/connectors/index.ts',
      'shared/connectors/schemas.ts',
      'shared/connectors/engines.ts',
    ];
    const loader = 'shared/connectors/runtimes.ts';
    const result = await build({
      entryPoints: [...definitions, loader],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      outdir: 'out',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const { outputs } = result.metafile;
    // protobufjs may come lazily with the gRPC kind's protoset parser (files.describe), which the
    // functions that keep files need; gRPC's transport, like every driver, comes only with a runtime.
    const drivers =
      /node_modules\/(pg|mysql2|pg-protocol|iconv-lite|@grpc\/grpc-js|@aws-sdk\/client-athena|@aws-sdk\/client-s3|@aws-sdk\/client-sts|@aws-sdk\/s3-request-presigner)\//;
    /** Every input an output loads, statically or lazily, following its imports. */
    const reachable = (path: string, kinds: string[], seen = new Set<string>()): Set<string> => {
      if (seen.has(path)) return new Set();
      seen.add(path);
      const inputs = new Set(Object.keys(outputs[path]?.inputs ?? {}));
      for (const imported of outputs[path]?.imports ?? []) {
        if (!kinds.includes(imported.kind)) continue;
        for (const input of reachable(imported.path, kinds, seen)) inputs.add(input);
      }
      return inputs;
    };
    const outputOf = (entry: string) => Object.keys(outputs).find((o) => outputs[o]!.entryPoint === entry)!;
    for (const entry of definitions) {
      // Not even lazily: a dynamic import puts its target into every bundle of the importer.
      const all = reachable(outputOf(entry), ['import-statement', 'dynamic-import']);
      expect(
        [...all].filter((i) => drivers.test(i)),
        entry,
      ).toEqual([]);
    }
    const eager = reachable(outputOf(loader), ['import-statement']);
    expect([...eager].filter((i) => drivers.test(i))).toEqual([]);
    const lazyChunks = outputs[outputOf(loader)]!.imports.filter((i) => i.kind === 'dynamic-import');
    const chunkWith = (driver: RegExp) =>
      lazyChunks.filter((chunk) =>
        [...reachable(chunk.path, ['import-statement'])].some((input) => driver.test(input)),
      );
    expect(chunkWith(/node_modules\/pg\//)).toHaveLength(1);
    expect(chunkWith(/node_modules\/mysql2\//)).toHaveLength(1);
    expect(chunkWith(/node_modules\/@grpc\/grpc-js\//)).toHaveLength(1);
    expect(chunkWith(/node_modules\/@aws-sdk\/client-athena\//)).toHaveLength(1);
    expect(chunkWith(/node_modules\/@aws-sdk\/s3-request-presigner\//)).toHaveLength(1);
    expect(chunkWith(/node_modules\/pg\//)[0]).not.toEqual(chunkWith(/node_modules\/mysql2\//)[0]);
  });

  it('finds a runtime module for every registered kind', async () => {
    for (const c of connectors) {
      const module = await loadConnectorRuntime(c.kind);
      expect(typeof module.createRuntime, c.kind).toBe('function');
    }
    await expect(loadConnectorRuntime('../sql')).rejects.toThrow("Dogu has no data source kind '../sql'.");
  });
});

describe('the engines', () => {
  const counting = (): ConnectorDefinition & ConnectorRuntimeModule & { loads: number } => {
    const definition = {
      loads: 0,
      kind: 'echo',
      actionKind: 'echo',
      label: { en: 'Echo', ja: 'エコー' },
      connection: z.object({ greeting: z.string(), token: z.string().optional() }),
      action: { kind: z.literal('echo'), text: z.string() },
      secretFields: ['token'],
      form: { connection: [], action: [], authAction: false },
      cloudPermissions: [],
      actionTexts: (action: { text?: unknown }) => [['#/text', String(action.text)]] as [string, string][],
      connectionTexts: (connection: { greeting?: unknown }) => [String(connection.greeting)],
      createRuntime() {
        definition.loads += 1;
        return {
          run: async (run: { values: Record<string, unknown>; connection: Record<string, unknown> }) => [
            {
              title: 'echo',
              status: 'succeeded' as const,
              columns: [],
              rows: [{ said: `${run.connection.greeting} ${String(run.values.name)}` }],
              rowCount: 1,
              messages: [],
            },
          ],
          testConnection: async () => {},
        };
      },
    };
    return definition as unknown as ConnectorDefinition & ConnectorRuntimeModule & { loads: number };
  };
  const dataSource = {
    id: 'e',
    name: 'E',
    kind: 'echo',
    projectId: 'p',
    createdAt: '',
    updatedAt: '',
    environments: { dev: { greeting: 'hello {{ vars.who }}' } },
  } as DataSource;
  const action = { id: 'a', kind: 'echo', text: 'x {{ name }}', parameters: [] } as unknown as Action;

  it('loads a runtime on first use only, once, and runs through it', async () => {
    const echo = counting();
    const engines = createActionEngines(
      { poolSize: 1 },
      { connectors: [echo], loadRuntime: async () => echo },
    );
    expect(echo.loads).toBe(0);
    expect(engines.secretFields('echo')).toEqual(['token']);
    expect([...engines.references(action, dataSource, 'dev')].sort()).toEqual(['name', 'vars.who']);
    expect(echo.loads).toBe(0);
    const run = {
      action,
      dataSource,
      environmentId: 'dev',
      connection: { greeting: 'hi' },
      key: 'k',
      values: { name: 'Ann' },
      signal: AbortSignal.timeout(1000),
      deadlineAt: Date.now() + 1000,
      callAction: async () => [],
    };
    const [first] = await engines.run(run);
    await engines.run(run);
    expect(first?.rows).toEqual([{ said: 'hi Ann' }]);
    expect(echo.loads).toBe(1);
  });

  it('refuses an action of another kind and an unknown kind with a clear error', async () => {
    const echo = counting();
    const engines = createActionEngines(
      { poolSize: 1 },
      { connectors: [echo], loadRuntime: async () => echo },
    );
    const run = {
      action: { ...action, kind: 'sql' } as Action,
      dataSource,
      environmentId: 'dev',
      connection: {},
      key: 'k',
      values: {},
      signal: AbortSignal.timeout(1000),
      deadlineAt: Date.now() + 1000,
      callAction: async () => [],
    };
    await expect(engines.run(run)).rejects.toThrow('A sql action cannot run on a echo data source.');
    await expect(engines.run({ ...run, dataSource: { ...dataSource, kind: 'oracle' } })).rejects.toThrow(
      "Dogu has no data source kind 'oracle'.",
    );
  });

  it('refuses to run where the composition has no runtimes, without loading any', async () => {
    const echo = counting();
    const engines = createActionEngines({ poolSize: 1 }, { connectors: [echo] });
    expect(engines.secretFields('echo')).toEqual(['token']);
    await expect(
      engines.testConnection('echo', {
        connection: {},
        key: 'k',
        signal: AbortSignal.timeout(1000),
      } as never),
    ).rejects.toThrow('This function does not run actions (it has no connector runtimes).');
    expect(echo.loads).toBe(0);
  });
});
