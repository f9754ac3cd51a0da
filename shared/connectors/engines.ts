/**
 * The domain's ActionEngines port over the registry: each kind's runtime (and its driver or SDK)
 * is imported on the first run or connection test of that kind, then kept for the process. The
 * loader is given by the composition root: functions that do not run actions compose the engines
 * without one, so no driver reaches their bundle (docs/decisions/0022).
 */
import type { ActionInput } from '../domain/definitions/action.ts';
import { DoguError } from '../domain/errors.ts';
import type { DataSource } from '../domain/model.ts';
import type {
  ActionEngines,
  ActionProblems,
  ConnectionCheck,
  EngineRun,
  RowGroupResult,
  RowGroupRun,
} from '../domain/ports.ts';
import { referencesIn } from '../domain/template.ts';
import type {
  ConnectorDefinition,
  ConnectorRuntime,
  FileParserModule,
  RuntimeLoader,
  RuntimeSettings,
} from './connector.ts';
import { connectors as registered } from './index.ts';
import { checkThroughBridge, runThroughBridge } from './network/through-bridge.ts';

export interface ActionEnginesOptions {
  /** Loads a kind's runtime; without it the engines describe and validate but do not run. */
  loadRuntime?: RuntimeLoader;
  /** Loads a kind's file parser (`<kind>/files.ts`); only the functions that keep files need it. */
  loadFileParser?: (kind: string) => Promise<FileParserModule>;
  connectors?: readonly ConnectorDefinition[];
}

export function createActionEngines(
  settings: RuntimeSettings,
  options: ActionEnginesOptions = {},
): ActionEngines {
  const { loadRuntime, loadFileParser, connectors = registered } = options;
  const runtimes = new Map<string, Promise<ConnectorRuntime>>();
  const definition = (kind: string): ConnectorDefinition => {
    const found = connectors.find((c) => c.kind === kind);
    if (!found) throw new DoguError('data_source_error', `Dogu has no data source kind '${kind}'.`);
    return found;
  };
  const runtimeOf = (kind: string): Promise<ConnectorRuntime> => {
    let runtime = runtimes.get(kind);
    if (!runtime) {
      const known = definition(kind);
      if (!loadRuntime) {
        // A wiring mistake, not a user's: this function was composed without connector runtimes.
        return Promise.reject(
          new DoguError(
            'internal_error',
            'This function does not run actions (it has no connector runtimes).',
          ),
        );
      }
      runtime = loadRuntime(known.kind).then((module) => module.createRuntime(settings));
      runtime.catch(() => runtimes.delete(kind));
      runtimes.set(kind, runtime);
    }
    return runtime;
  };

  return {
    actionKindOf: (kind) => connectors.find((c) => c.kind === kind)?.actionKind,
    supportsDryRun: (kind) => connectors.find((c) => c.kind === kind)?.dryRun === true,
    supportsPreview: (kind) => connectors.find((c) => c.kind === kind)?.preview === true,
    async run(run: EngineRun) {
      const c = definition(run.dataSource.kind);
      if (c.actionKind !== run.action.kind) {
        throw new DoguError(
          'data_source_error',
          `A ${run.action.kind} action cannot run on a ${run.dataSource.kind} data source.`,
        );
      }
      const runtime = await runtimeOf(c.kind);
      return runThroughBridge(run, (routed) => runtime.run(routed));
    },
    async runRowGroup(group: RowGroupRun): Promise<RowGroupResult> {
      const { run } = group;
      const c = definition(run.dataSource.kind);
      // Through a bridge the rows run one at a time, each within the bridge's own time-out.
      if (c.actionKind !== run.action.kind || run.bridge) return { kind: 'not_grouped' };
      const runtime = await runtimeOf(c.kind);
      return runtime.runRowGroup ? runtime.runRowGroup(group) : { kind: 'not_grouped' };
    },
    references(action: ActionInput, dataSource?: DataSource, environmentId?: string) {
      const c = connectors.find((k) => k.actionKind === action.kind);
      const texts = c ? c.actionTexts(action).map(([, text]) => text) : [];
      const connection = environmentId ? dataSource?.environments[environmentId] : undefined;
      if (dataSource && connection)
        texts.push(...(definition(dataSource.kind).connectionTexts?.(connection) ?? []));
      return new Set(texts.flatMap(referencesIn));
    },
    validate(action: ActionInput, dataSource: DataSource, problems: ActionProblems) {
      definition(dataSource.kind).validate?.(action, { dataSource, ...problems });
    },
    secretFields: (kind) => connectors.find((c) => c.kind === kind)?.secretFields ?? [],
    allowsAuthAction: (kind) => connectors.find((c) => c.kind === kind)?.form.authAction ?? false,
    async testConnection(kind: string, check: ConnectionCheck) {
      const runtime = await runtimeOf(kind);
      await checkThroughBridge(check, check.key, (routed) => runtime.testConnection(routed));
    },
    async catalog(kind: string, check: ConnectionCheck) {
      const runtime = await runtimeOf(kind);
      if (!runtime.catalog)
        throw new DoguError('bad_request', `A ${kind} data source has no catalog to choose from.`);
      const catalog = runtime.catalog.bind(runtime);
      return checkThroughBridge(check, check.key, catalog);
    },
    fileKind(kind: string) {
      const files = connectors.find((c) => c.kind === kind)?.files;
      if (!files) return undefined;
      return {
        name: files.name,
        maxBytes: files.maxBytes,
        pinField: files.pinField ?? `${files.name}VersionId`,
      };
    },
    async describeFile(kind: string, bytes: Uint8Array) {
      const files = definition(kind).files;
      if (!files) throw new DoguError('bad_request', `A ${kind} data source keeps no files.`);
      if (files.describe) return files.describe(bytes);
      if (!loadFileParser) {
        throw new DoguError('internal_error', 'This function keeps no files (it has no file parsers).');
      }
      return (await loadFileParser(kind)).describeFile(bytes);
    },
    oauthProvider: (kind, connection) => connectors.find((c) => c.kind === kind)?.oauth?.provider(connection),
    async close() {
      const loaded = await Promise.allSettled(runtimes.values());
      runtimes.clear();
      await Promise.all(
        loaded.map((r) => (r.status === 'fulfilled' ? r.value.close?.().catch(() => {}) : undefined)),
      );
    },
  };
}
