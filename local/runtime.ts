/**
 * The embedded runtime: the whole service in one Node process. The same
 * handlers as on AWS, with dynalite for DynamoDB (execution records and audit
 * entries in a SQLite file instead, decision 0250), PGlite for the demo
 * database, all under one data directory; the keys may live elsewhere (local/key-files.ts).
 */
import { once } from 'node:events';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createAccountServices, withInvitationMail } from '../shared/adapters/auth/account-services.ts';
import { invitationMailFromEnv } from '../shared/adapters/auth/invitation-mail.ts';
import { TokenService } from '../shared/adapters/auth/token-service.ts';
import { LocalBlobStore } from '../shared/adapters/blobs/local-blob-store.ts';
import { CachingStore } from '../shared/adapters/caching-store.ts';
import { DynamoDbAccountStore } from '../shared/adapters/dynamodb/dynamodb-account-store.ts';
import { DynamoDbCoordination } from '../shared/adapters/dynamodb/dynamodb-coordination.ts';
import { DynamoDbFileStore } from '../shared/adapters/dynamodb/dynamodb-file-store.ts';
import { DynamoDbIdentityStore } from '../shared/adapters/dynamodb/dynamodb-identity-store.ts';
import { DynamoDbNotificationStore } from '../shared/adapters/dynamodb/dynamodb-notification-store.ts';
import { DynamoDbOAuthStore } from '../shared/adapters/dynamodb/dynamodb-oauth-store.ts';
import { DynamoDbReviewStore } from '../shared/adapters/dynamodb/dynamodb-review-store.ts';
import { DynamoDbSchedulingStore } from '../shared/adapters/dynamodb/dynamodb-scheduling-store.ts';
import { DynamoDbStore } from '../shared/adapters/dynamodb/dynamodb-store.ts';
import { createLocalOwnIdp } from '../shared/adapters/idp/own-idp-services.ts';
import { systemClock, uuidV7Ids } from '../shared/adapters/ids.ts';
import { HttpNotificationChannels } from '../shared/adapters/notifications/http-notification-channels.ts';
import { SmtpMailer } from '../shared/adapters/notifications/smtp-mailer.ts';
import { TimerWakeups } from '../shared/adapters/notifications/timer-wakeups.ts';
import { createOidcServices } from '../shared/adapters/oidc/oidc-services.ts';
import {
  provideSsoConfig,
  type SsoConfig,
  ssoConfigFromEnv,
  waitForSsoConfig,
} from '../shared/adapters/oidc/sso-config.ts';
import { MemoryRateLimiter } from '../shared/adapters/rate-limit/memory-rate-limiter.ts';
import { createWorkerSandbox } from '../shared/adapters/sandbox/worker-sandbox.ts';
import { LocalSecretCipher } from '../shared/adapters/secrets/local-cipher.ts';
import type { ConnectorDefinition, ConnectorRuntimeModule } from '../shared/connectors/connector.ts';
import { createActionEngines } from '../shared/connectors/engines.ts';
import { loadFileParser } from '../shared/connectors/file-parsers.ts';
import { connectors as registeredConnectors } from '../shared/connectors/index.ts';
import { loadConnectorRuntime } from '../shared/connectors/runtimes.ts';
import type { SqlConnection } from '../shared/connectors/sql/definition.ts';
import { mcpToolCallsPerMinuteFromEnv } from '../shared/domain/agents/tool-call-limit.ts';
import { NotificationCenter } from '../shared/domain/notifications/center.ts';
import { rateLimitPerMinuteFromEnv } from '../shared/domain/rate-limit.ts';
import { deliverCronRun } from '../shared/domain/scheduling/cron-runs.ts';
import { runReservation } from '../shared/domain/scheduling/reservations.ts';
import { SecretValues } from '../shared/domain/secret-values.ts';
import { viewRunsPerMinuteFromEnv } from '../shared/domain/views/view-run-limit.ts';
import { provideServices, type Services, schedulingDeps } from '../shared/runtime/services.ts';
import { type AccountsAtStart, accountsConfigured, prepareAccounts } from './accounts-startup.ts';
import { anchorFileOf, anchorMinutesFromEnv, startAnchoring } from './audit-anchor-file.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { startEmbeddedDynamoDb } from './embedded-dynamodb.ts';
import { createLocalServer, loadHandlers } from './http-server.ts';
import { JournaledSchedulingStore } from './journaled-scheduling-store.ts';
import { keepDataDirPrivate, loadKey } from './key-files.ts';
import { LocalJobRunner } from './local-job-runner.ts';
import { type Delivery, LocalScheduler } from './local-scheduler.ts';
import { startScheduling } from './scheduling-startup.ts';
import { demoIds, seedDemo } from './seed-demo.ts';
import { type DatabaseSync, openLocalDatabase } from './sqlite/local-database.ts';
import { takeOverEarlierRecords } from './sqlite/records-from-earlier-versions.ts';
import { SqliteAuditLog } from './sqlite/sqlite-audit-log.ts';
import { SqliteExecutions } from './sqlite/sqlite-executions.ts';

export interface LocalRuntimeOptions {
  dataDir: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Port of the embedded demo database; 0 picks a free one. */
  demoDbPort: number;
  /** Requests per client and minute (default DOGU_RATE_LIMIT_PER_MINUTE; unset or 0: no limit). */
  rateLimitPerMinute?: number;
  /** Runs per viewer, view and minute (decision 0151); default DOGU_VIEW_RUNS_PER_MINUTE or 120, 0 = none. */
  viewRunsPerMinute?: number;
  /** MCP tool calls per client, principal, project and minute (decision 0236); default DOGU_MCP_TOOL_CALLS_PER_MINUTE or 60, 0 = none. */
  mcpToolCallsPerMinute?: number;
  /** Use this PostgreSQL for the demo instead of the embedded one (benchmarks, bigger demos). */
  demoDatabaseUrl?: string;
  tableName?: string;
  /** Port of the demo gRPC service (local/demo-grpc/); 0 or a busy port picks a free one. */
  demoGrpcPort?: number;
  /** Port of the built-in development IdP (used unless DOGU_OIDC_ISSUER is set); 0 picks a free one. */
  devIdpPort?: number;
  /** The team's own accounts (default: DOGU_ACCOUNTS=on): no demo passwords, no development IdP. */
  accounts?: boolean;
  /** Waits between notification attempts (tests shorten them); default 10 s, 1 min, 5 min, 30 min. */
  notificationRetryDelaysMs?: number[];
  /** Time-out of one notification attempt; default 5 s. */
  notificationTimeoutMs?: number;
  /** Time to receive a whole request body (408 past it); default DOGU_BODY_TIMEOUT_SECONDS or 30 s. */
  bodyTimeoutMs?: number;
  /** The data-source kinds served (tests add kinds of their own); default: the registry. */
  connectors?: readonly ConnectorDefinition[];
  /** Runtimes of kinds added by `connectors` (tests): kind → what its runtime.ts would export. */
  connectorRuntimes?: Readonly<Record<string, ConnectorRuntimeModule>>;
  /** A normal run's time limit (spec 8: one minute, the default); tests use a few seconds. */
  maxExecutionMs?: number;
  /** Scripts run at the same time by the sandbox's worker pool (default 4). */
  scriptConcurrency?: number;
}

export interface LocalRuntime {
  url: string;
  dataDir: string;
  seeded: boolean;
  /** The built-in development IdP's issuer, when no external IdP is configured. */
  devIdpIssuer?: string;
  /** Demo users with the demo password, or the administrator's invitation (docs/accounts.md). */
  accounts: AccountsAtStart;
  demo: typeof demoIds & { database: SqlConnection; grpcAddress: string };
  services: Services;
  /**
   * For tools that look underneath the store: the embedded DynamoDB's client and table, and the
   * SQLite database of execution records and audit entries (decision 0250).
   */
  storage: { client: DynamoDBDocumentClient; tableName: string; local: DatabaseSync };
  /** The in-process scheduler and job runner (benchmarks and tests look at them). */
  scheduling: { scheduler: LocalScheduler; jobs: LocalJobRunner };
  /** The embedded store stopped unexpectedly: the process should stop too. */
  onFailure(listener: (error: Error) => void): void;
  close(): Promise<void>;
}

/** Spec 8: a normal execution ends after one minute. */
export const defaultMaxExecutionMs = 60_000;

export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  await keepDataDirPrivate(options.dataDir);
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const closeOne of closers.reverse()) await closeOne().catch(() => {});
  };
  // Start-ups that do not depend on each other run at once (decision 0066): the embedded store's
  // worker, the demo database (PGlite: the longest), the demo gRPC service and the handlers' modules.
  // Heavy modules (PGlite, gRPC, oidc-provider) are imported only when used; the development IdP
  // starts once the runtime answers. Each started part is closed at its place in `closers`, and a
  // failed start waits for the parts still starting before closing them.
  const starting: Promise<unknown>[] = [];
  const begin = <T>(start: () => Promise<T>): Promise<T> => {
    const promise = start();
    starting.push(promise.catch(() => {}));
    return promise;
  };
  try {
    closers.push(await lockDataDir(options.dataDir));
    const tableName = options.tableName ?? 'dogu';
    const handlersLoaded = begin(loadHandlers);
    const demoDatabase = begin(async () => {
      const demo = await import('./demo-database.ts');
      if (options.demoDatabaseUrl) {
        const connection = connectionFromUrl(options.demoDatabaseUrl);
        await demo.ensureDemoSchema(connection);
        return { connection, close: async () => {} };
      }
      const embedded = await demo.startEmbeddedDemoDatabase(
        join(options.dataDir, 'demo-postgres'),
        options.demoDbPort,
      );
      await demo.ensureDemoSchema(embedded.connection);
      return embedded;
    });
    closers.push(async () => (await demoDatabase.catch(() => undefined))?.close());
    const demoGrpcStarted = begin(async () => {
      const { startDemoGrpcServer } = await import('./demo-grpc/server.ts');
      return startDemoGrpcServer({ port: options.demoGrpcPort ?? 0 }).catch(() =>
        startDemoGrpcServer({ port: 0 }),
      );
    });
    closers.push(async () => (await demoGrpcStarted.catch(() => undefined))?.close());
    const teamAccounts = options.accounts ?? accountsConfigured(process.env);
    const dynamo = await startEmbeddedDynamoDb(join(options.dataDir, 'dynamodb'), tableName);
    closers.push(() => dynamo.close());

    // Execution records and audit entries, the writes of every run, in SQLite in this thread
    // (decision 0250); the rest of the store stays in dynalite.
    const localDb = await openLocalDatabase(join(options.dataDir, 'local.sqlite'));
    closers.push(() => localDb.close());
    const executions = new SqliteExecutions(localDb);
    const audit = new SqliteAuditLog(localDb);
    await takeOverEarlierRecords({
      db: localDb.db,
      executions,
      audit,
      dynalite: { client: dynamo.client, tableName },
      dataDir: options.dataDir,
    });
    // Runs before the database closes (closers run in reverse): the last heads are anchored at shutdown.
    const anchoring = startAnchoring(audit, anchorFileOf(options.dataDir), anchorMinutesFromEnv(process.env));
    closers.push(() => anchoring.stop());
    const schedules = await JournaledSchedulingStore.open(
      new DynamoDbSchedulingStore(dynamo.client, tableName),
      join(options.dataDir, 'scheduling.journal'),
    );
    closers.push(() => schedules.close());
    // One process owns the data directory, so evicting on write keeps the cache exact; the TTL
    // only bounds memory for definitions nobody asks for any more.
    const store = new CachingStore(new DynamoDbStore(dynamo.client, tableName), 5 * 60_000);
    const identities = new DynamoDbIdentityStore(dynamo.client, tableName);
    const engines = createActionEngines(
      { poolSize: options.demoDatabaseUrl ? 10 : 4 },
      {
        connectors: options.connectors ?? registeredConnectors,
        // Tests hand the runtimes of their own kinds; every other kind loads its runtime.ts.
        loadRuntime: async (kind) => options.connectorRuntimes?.[kind] ?? loadConnectorRuntime(kind),
        loadFileParser,
      },
    );
    closers.push(() => engines.close());
    const sandbox = createWorkerSandbox(
      options.scriptConcurrency ? { concurrency: options.scriptConcurrency } : {},
    );
    closers.push(async () => sandbox.close?.());
    // The IdP's issuer is this runtime's URL, known once the server listens (below).
    let baseUrl = '';
    let watermark: (at: Date) => void = () => {};
    const scheduler = new LocalScheduler((delivery) => deliver(services, delivery), {
      onWatermark: (at) => watermark(at),
      onError: (error, delivery) => logSchedulingError(error, JSON.stringify(delivery)),
    });
    const jobs = new LocalJobRunner(
      () => schedulingDeps(services),
      `local-${process.pid}`,
      logSchedulingError,
    );
    const secrets = new SecretValues(new LocalSecretCipher(await loadKey(options.dataDir, 'secrets-key')));
    const wakeups = new TimerWakeups(() => notifications.drainDue());
    const channels = new HttpNotificationChannels(new SmtpMailer());
    const notifications = new NotificationCenter({
      notificationStore: new DynamoDbNotificationStore(dynamo.client, tableName),
      channels,
      wakeups,
      secrets,
      clock: systemClock,
      ids: uuidV7Ids,
      ...(options.notificationRetryDelaysMs ? { retryDelaysMs: options.notificationRetryDelaysMs } : {}),
      ...(options.notificationTimeoutMs ? { timeoutMs: options.notificationTimeoutMs } : {}),
    });
    const perMinute = options.rateLimitPerMinute ?? rateLimitPerMinuteFromEnv(process.env);
    const viewRunsPerMinute = options.viewRunsPerMinute ?? viewRunsPerMinuteFromEnv(process.env);
    const toolCallsPerMinute = options.mcpToolCallsPerMinute ?? mcpToolCallsPerMinuteFromEnv(process.env);
    const services: Services = {
      ...(perMinute > 0 ? { rateLimiter: new MemoryRateLimiter(perMinute) } : {}),
      ...(viewRunsPerMinute > 0
        ? {
            viewRunLimit: {
              limiter: new MemoryRateLimiter(viewRunsPerMinute),
              perMinute: viewRunsPerMinute,
            },
          }
        : {}),
      ...(toolCallsPerMinute > 0
        ? {
            mcpToolCallLimit: {
              limiter: new MemoryRateLimiter(toolCallsPerMinute),
              perMinute: toolCallsPerMinute,
            },
          }
        : {}),
      store,
      executions,
      identities,
      reviews: new DynamoDbReviewStore(dynamo.client, tableName),
      coordination: new DynamoDbCoordination(dynamo.client, tableName),
      definitions: store,
      tokens: new TokenService(await loadKey(options.dataDir, 'signing-key')),
      engines,
      audit,
      secrets,
      clock: systemClock,
      ids: uuidV7Ids,
      settings: {
        localLogin: true,
        loginTokenSeconds: 12 * 3600,
        maxExecutionMs: options.maxExecutionMs ?? defaultMaxExecutionMs,
        maxJobExecutionMs: 30 * 60_000,
      },
      oidc: createOidcServices({ identities, clock: systemClock, env: process.env }),
      idp: await createLocalOwnIdp({
        dataDir: options.dataDir,
        baseUrl: () => baseUrl,
        clock: systemClock,
        env: process.env,
      }),
      schedules,
      scheduler,
      jobs,
      // One process changes accounts and forgets its remembered answers at once (user-access.ts).
      accounts: withInvitationMail(
        createAccountServices(new DynamoDbAccountStore(dynamo.client, tableName), 60_000),
        new SmtpMailer(),
        invitationMailFromEnv(process.env, () => baseUrl, 'smtp'),
      ),
      notifications,
      files: await localFileStorage(dynamo.client, tableName, options.dataDir),
      // Large execution arguments and results (decision 0056), served by the authorised payload route.
      payloads: await localPayloads(options.dataDir),
      sandbox,
      mcpOAuth: new DynamoDbOAuthStore(dynamo.client, tableName),
    };
    provideServices(async () => services);

    // Listen first (the demo HTTP data source needs this runtime's URL); requests wait for the seed.
    let markReady: () => void = () => {};
    const ready = new Promise<void>((resolve) => {
      markReady = resolve;
    });
    const server = createLocalServer(
      await handlersLoaded,
      ready,
      undefined,
      () => ({ definitionCache: store.stats() }),
      {
        bodyTimeoutMs: options.bodyTimeoutMs ?? bodyTimeoutFromEnv(),
        maxExecutionMs: services.settings.maxExecutionMs,
      },
    );
    server.keepAliveTimeout = 65_000;
    server.listen(options.port, options.host);
    await once(server, 'listening');
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    const { port } = server.address() as AddressInfo;
    const url = `http://${loopbackFor(options.host)}:${port}`;
    // The development IdP is the demo's: not with team accounts, DOGU_OIDC_ISSUER or an administrator's
    // provider. It starts after the runtime answers (oidc-provider is a large module graph): sign-ins
    // through it wait for it (waitForSsoConfig), everything else is served at once.
    const devIdpNeeded =
      !ssoConfigFromEnv(process.env) && !teamAccounts && !(await services.accounts.store.getSsoProvider());
    let devIdpStarted: Promise<{ config: SsoConfig; close(): Promise<void> } | undefined> =
      Promise.resolve(undefined);
    const startDevIdpLater = () => {
      if (!devIdpNeeded) return;
      devIdpStarted = (async () => {
        const { startDevIdp } = await import('./dev-idp.ts');
        const devIdp = await startDevIdp({
          dataDir: options.dataDir,
          host: '127.0.0.1',
          port: options.devIdpPort ?? 0,
          consoleRedirectUris: [`${url}/auth/callback`, `http://localhost:${port}/auth/callback`],
        });
        provideSsoConfig(devIdp.config);
        return devIdp;
      })();
      waitForSsoConfig(devIdpStarted);
    };
    closers.push(async () => {
      const devIdp = await devIdpStarted.catch(() => undefined);
      if (!devIdp) return;
      provideSsoConfig(undefined);
      await devIdp.close();
    });
    baseUrl = url;
    const accounts = await prepareAccounts(services, { demo: !teamAccounts });
    const database = (await demoDatabase).connection;
    const demoGrpc = await demoGrpcStarted;
    const seeded = await seedDemo(
      { ...services, scheduling: schedulingDeps(services) },
      { database, runtimeUrl: url, grpcAddress: demoGrpc.address },
    );
    // Scheduling starts after the seed and stops before the store (closers run in reverse).
    watermark = (await startScheduling(schedulingDeps(services), scheduler)).onWatermark;
    closers.push(async () => {
      await scheduler.stop();
      await jobs.close();
      wakeups.stop();
      await notifications.idle();
      channels.close();
    });
    // Deliveries left pending by the last run (a crash, a restart mid-retry) go out now.
    void notifications.drainDue().catch((error) => logSchedulingError(error, 'notification deliveries'));
    markReady();
    startDevIdpLater();
    const devIdpIssuer = (await devIdpStarted)?.config.issuer;
    return {
      url,
      dataDir: options.dataDir,
      seeded,
      ...(devIdpIssuer ? { devIdpIssuer } : {}),
      accounts,
      demo: { ...demoIds, database, grpcAddress: demoGrpc.address },
      services,
      storage: { client: dynamo.client, tableName, local: localDb.db },
      scheduling: { scheduler, jobs },
      onFailure: (listener) => dynamo.onFailure(listener),
      close,
    };
  } catch (error) {
    await Promise.all(starting);
    await close();
    throw error;
  }
}

/** Execution payloads under `<dataDir>/payloads`, removed with the data directory (no expiry here). */
async function localPayloads(dataDir: string) {
  const blobs = new LocalBlobStore(join(dataDir, 'payloads'));
  await blobs.removeLeftovers();
  return blobs;
}

/** Uploaded files' bytes under `<dataDir>/blobs`; their records in the embedded store. */
async function localFileStorage(client: DynamoDBDocumentClient, tableName: string, dataDir: string) {
  const records = new DynamoDbFileStore(client, tableName);
  const blobs = new LocalBlobStore(join(dataDir, 'blobs'));
  await blobs.removeLeftovers();
  return { blobs, versions: records, uploadTokens: records };
}

function deliver(services: Services, delivery: Delivery) {
  const deps = schedulingDeps(services);
  return delivery.kind === 'cron' ? deliverCronRun(deps, delivery) : runReservation(deps, delivery);
}

/** Scheduling errors are logged without arguments or results: those may carry personal data. */
function logSchedulingError(error: unknown, what: string) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(JSON.stringify({ level: 'ERROR', message: 'scheduling failed', what, error: message }));
}

/** The address this process reaches itself at: a wildcard listen address is reached on loopback. */
function loopbackFor(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function connectionFromUrl(value: string): SqlConnection {
  const url = new URL(value);
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    database: decodeURIComponent(url.pathname.slice(1)) || 'postgres',
    user: decodeURIComponent(url.username) || 'postgres',
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
  };
}

/** DOGU_BODY_TIMEOUT_SECONDS: a positive number of seconds, else the default. */
function bodyTimeoutFromEnv(): number | undefined {
  const seconds = Number(process.env.DOGU_BODY_TIMEOUT_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}
