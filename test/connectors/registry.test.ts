/**
 * The registry and the engines over it: every kind's definition is complete and valid, request
 * schemas come from it, and a kind's runtime (with its driver) is loaded only on first use.
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ConnectorDefinition } from '../../shared/connectors/connector.ts';
import { createActionEngines } from '../../shared/connectors/engines.ts';
import { connectors } from '../../shared/connectors/index.ts';
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

  it('keeps every driver out of what importing the registry loads', async () => {
    const result = await build({
      entryPoints: ['shared/connectors/index.ts', 'shared/connectors/schemas.ts'],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      outdir: 'out',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const outputs = Object.values(result.metafile.outputs);
    const drivers =
      /node_modules\/(pg|mysql2|pg-protocol|iconv-lite|@grpc\/grpc-js|protobufjs|@aws-sdk\/client-athena|jose|@aws-sdk\/client-s3|@aws-sdk\/client-sts|@aws-sdk\/s3-request-presigner)\//;
    const entries = ['shared/connectors/index.ts', 'shared/connectors/schemas.ts'];
    for (const entry of outputs.filter((o) => entries.includes(o.entryPoint ?? ''))) {
      const eager = new Set<string>(Object.keys(entry.inputs));
      // What an entry imports statically is loaded with it; dynamic imports are not.
      for (const imported of entry.imports.filter((i) => i.kind === 'import-statement')) {
        for (const input of Object.keys(result.metafile.outputs[imported.path]?.inputs ?? {}))
          eager.add(input);
      }
      expect(
        [...eager].filter((i) => drivers.test(i)),
        entry.entryPoint,
      ).toEqual([]);
    }
    const lazy = outputs
      .filter((o) => !entries.includes(o.entryPoint ?? ''))
      .flatMap((o) => Object.keys(o.inputs));
    expect(lazy.some((i) => /node_modules\/pg\//.test(i))).toBe(true);
    expect(lazy.some((i) => /node_modules\/mysql2\//.test(i))).toBe(true);
    expect(lazy.some((i) => /node_modules\/@grpc\/grpc-js\//.test(i))).toBe(true);
    expect(lazy.some((i) => /node_modules\/protobufjs\//.test(i))).toBe(true);
    expect(lazy.some((i) => /node_modules\/@aws-sdk\/client-athena\//.test(i))).toBe(true);
    expect(lazy.some((i) => /node_modules\/jose\//.test(i))).toBe(true);
    expect(lazy.some((i) => /node_modules\/@aws-sdk\/client-s3\//.test(i))).toBe(true);
    expect(lazy.some((i) => /node_modules\/@aws-sdk\/client-sts\//.test(i))).toBe(true);
    expect(lazy.some((i) => /node_modules\/@aws-sdk\/s3-request-presigner\//.test(i))).toBe(true);
  });
});

describe('the engines', () => {
  const counting = (): ConnectorDefinition & { loads: number } => {
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
      async runtime() {
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
    return definition as unknown as ConnectorDefinition & { loads: number };
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
    const engines = createActionEngines({ poolSize: 1 }, [echo]);
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
    const engines = createActionEngines({ poolSize: 1 }, [counting()]);
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

  it('asks a kind for its catalog through the runtime, and refuses a kind without one', async () => {
    const echo = counting();
    const withCatalog = {
      ...echo,
      kind: 'listing',
      async runtime() {
        return {
          ...(await echo.runtime({ poolSize: 1 })),
          catalog: async (check: { connection: Record<string, unknown> }) => ({
            entries: [{ id: 'x', label: String(check.connection.greeting), fill: { text: 'x' } }],
          }),
        };
      },
    } as ConnectorDefinition;
    const engines = createActionEngines({ poolSize: 1 }, [echo, withCatalog]);
    const check = { key: 'k', connection: { greeting: 'hi' }, signal: AbortSignal.timeout(1000) };
    expect(await engines.catalog('listing', check)).toEqual({
      entries: [{ id: 'x', label: 'hi', fill: { text: 'x' } }],
    });
    await expect(engines.catalog('echo', check)).rejects.toThrow('A echo data source has no catalog');
  });
});
