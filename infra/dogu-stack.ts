/**
 * Everything Dogu needs in one AWS account and region, for one stage
 * (development, staging, production, ...). Later features add their resources
 * (Scheduler, Step Functions, S3, CloudFront) here as further constructs.
 */

import {
  Aspects,
  CfnOutput,
  Duration,
  RemovalPolicy,
  SecretValue,
  Stack,
  type StackProps,
  Tags,
} from 'aws-cdk-lib';
import { type CfnFunction, type IFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import type { Route } from '../shared/http/routes.ts';
import { originVerifySecretEnv } from '../shared/http/viewer-ip.ts';
import { type ConnectorResources, grantConnectorPermissions } from './connector-permissions.ts';
import { ConsoleHosting, type ConsoleHostingProps } from './console-hosting.ts';
import { ApiAccessLog } from './constructs/access-log.ts';
import { AuditAnchor } from './constructs/audit-anchor.ts';
import { BlobBucket } from './constructs/blob-bucket.ts';
import { DataTable } from './constructs/data-table.ts';
import { FunctionRoles } from './constructs/function-roles.ts';
import { HandlerFunction, logRetention } from './constructs/handler-function.ts';
import { DoguHttpApi } from './constructs/http-api.ts';
import { LogBucket } from './constructs/log-bucket.ts';
import { Network, type NetworkSettings } from './constructs/network.ts';
import { Operations } from './constructs/operations.ts';
import { OriginVerifyRotation } from './constructs/origin-verify-rotation.ts';
import { PayloadBucket } from './constructs/payload-bucket.ts';
import { ScriptSandbox } from './constructs/script-sandbox.ts';
import { SigningKey } from './constructs/signing-key.ts';
import { functionUrlTimeout, SyncExecutionOrigin } from './constructs/sync-execution-origin.ts';
import { deployableHandlers, type HandlerName } from './deployable-routes.ts';
import { fileWriters, needsOf, runsActions } from './function-needs.ts';
import { acknowledge, WildcardAcknowledgements } from './nag.ts';
import { Scheduling } from './scheduling.ts';

export interface DoguStackProps extends StackProps {
  /** Lower-case name of the stage; 'production' turns on deletion protection and retention. */
  stage: string;
  /** Lifetime of login tokens in seconds; unset keeps the runtime's default (12 hours). */
  loginTokenSeconds?: number;
  /** Data-source kinds that may run with the action functions' own role (their cloudPermissions are granted). */
  functionRoleKinds?: readonly string[];
  /** What those kinds' rights reach: workgroups, Glue databases, buckets (decision 0102). */
  connectorResources?: ConnectorResources;
  /** Subscribed to the alarm topic (context `alarmEmail`). */
  alarmEmail?: string;
  /** Days each audit anchor is locked in compliance mode (context `auditAnchorRetentionDays`, default 400). */
  auditAnchorRetentionDays?: number;
  /** Reserved concurrency of the scheduled-work functions (context `workerConcurrency`, 0 = none). */
  workerConcurrency?: number;
  /** Requests per client (user or service account) and minute (context `rateLimitPerMinute`, 0 = none). */
  rateLimitPerMinute?: number;
  /** VPC mode for the functions that run actions (context `vpc`...); off when unset. */
  network?: NetworkSettings;
  /** The console's and API's own domain name (context `domainName`, `certificateArn`...). */
  domain?: ConsoleHostingProps['domain'];
  /** A CLOUDFRONT-scope web ACL to attach (context `waf` or `webAclArn`). */
  webAclArn?: string;
  /** The routes API Gateway serves: the route table's deployable ones unless a test grows them. */
  routes?: readonly Route[];
}

export const productionStage = 'production';

/**
 * API Gateway HTTP APIs wait at most 30 s for an integration. Spec 8 lets "the bridge" time-out end
 * a run before the 60 s maximum, so on AWS the domain cancels an execution at 28 s and records and
 * answers a clear time-out before the gateway gives up; longer work runs as a job.
 */
const maxSynchronousExecutionMs = 28_000;
/** The extra seconds let the handler cancel, record the outcome and answer. */
const executionTimeout = Duration.seconds(35);
/** Everything else is one or two DynamoDB calls; a short timeout ends a stuck call quickly. */
const defaultTimeout = Duration.seconds(10);
/**
 * A function that runs actions lives at least this long past its run limit, so a run is always
 * cancelled, recorded and answered by Dogu, never cut by Lambda (decision 0076).
 */
export const handlerBudgetMarginSeconds = 5;
const timeoutByHandler: Partial<Record<HandlerName, Duration>> = {
  // Also served through its function URL, where a run may take 57 s (decision 0055).
  'execute-action': functionUrlTimeout,
  // A connection test or a catalog read may wait for an unreachable host (10 s by default).
  'data-source-connection': executionTimeout,
  // Run now and retry execute the cron job's action at once, as a synchronous execution does.
  'cron-run-now': executionTimeout,
  // Approving a review request runs the approved action at once.
  'review-requests': executionTimeout,
};

/**
 * Per-route defaults for the whole API. Well below the account limit (10,000 rps) so a runaway
 * script cannot starve other APIs in the account or flood the databases actions talk to.
 */
const apiThrottle = { rateLimit: 100, burstLimit: 200 };

/** Handlers that run actions or test connections: those that compose the action engines. */
export const actionRunners: readonly HandlerName[] = deployableHandlers().filter(runsActions);

/**
 * Concurrency reserved for each function that runs scheduled work: a burst of cron jobs or a wide
 * batch waits (Step Functions and Lambda retry) instead of taking the API's share of the account's
 * concurrency. Context `workerConcurrency` changes it; 0 reserves nothing (new accounts whose
 * limit is 10 cannot reserve any).
 */
export const defaultWorkerConcurrency = 10;

/** Ten requests a second on average per caller: far above a person's, a ceiling for a script's. */
export const defaultRateLimitPerMinute = 600;

function reserveConcurrency(scheduling: Scheduling, perFunction: number): void {
  if (perFunction <= 0) return;
  for (const fn of [scheduling.scheduledRun, scheduling.runJob, scheduling.runBatchChunk]) {
    (fn.node.defaultChild as CfnFunction).reservedConcurrentExecutions = perFunction;
  }
  // One drain at a time is enough; two would only race for the same deliveries. The same for the
  // sweeper: overlapping sweeps would only end the same runs twice.
  for (const fn of [scheduling.notificationDeliveries, scheduling.sweeper.function]) {
    (fn.node.defaultChild as CfnFunction).reservedConcurrentExecutions = 1;
  }
}

const stageNamePattern = /^[a-z][a-z0-9-]{0,30}$/;

export class DoguStack extends Stack {
  readonly dataTable: DataTable;
  readonly signingKey: SigningKey;
  readonly functionsByHandler: ReadonlyMap<string, IFunction>;
  /** The functions' roles, one per set of needs (decision 0051). */
  readonly functionRoles: FunctionRoles;
  readonly auditAnchor: AuditAnchor;
  readonly apiLogGroup: LogGroup;
  readonly httpApi: DoguHttpApi;
  readonly scheduling: Scheduling;
  readonly blobs: BlobBucket;
  readonly operations: Operations;
  readonly console: ConsoleHosting;
  readonly network?: Network;

  constructor(scope: Construct, id: string, props: DoguStackProps) {
    const {
      stage,
      loginTokenSeconds,
      functionRoleKinds = [],
      connectorResources = {},
      alarmEmail,
      workerConcurrency = defaultWorkerConcurrency,
      rateLimitPerMinute = defaultRateLimitPerMinute,
      network,
      domain,
      webAclArn,
      routes,
      ...stackProps
    } = props;
    // The stage is part of the stack, API and tag names; one spelling per stage avoids twins.
    if (!stageNamePattern.test(stage)) {
      throw new Error(`Stage '${stage}' must be lower-case letters, digits and '-', starting with a letter.`);
    }
    const isProduction = stage === productionStage;
    super(scope, id, {
      description: `Dogu internal tools (${stage})`,
      terminationProtection: isProduction,
      ...stackProps,
    });
    Tags.of(this).add('dogu:stage', stage);
    // Intended wildcards are acknowledged for cdk-nag, each with its reason (infra/nag.ts).
    Aspects.of(this).add(new WildcardAcknowledgements());

    this.dataTable = new DataTable(this, 'Data', { deletionProtection: isProduction });
    this.signingKey = new SigningKey(this, 'SigningKey', { retain: isProduction });

    // The names shared/runtime/aws-core.ts and the service groups read when a Lambda container starts.
    const environment: Record<string, string> = {
      DOGU_TABLE_NAME: this.dataTable.table.tableName,
      DOGU_SIGNING_KEY_SECRET_ARN: this.signingKey.secret.secretArn,
      POWERTOOLS_SERVICE_NAME: 'dogu',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      NODE_OPTIONS: '--enable-source-maps',
      DOGU_MAX_EXECUTION_MS: String(maxSynchronousExecutionMs),
      // Secrets and data source passwords are encrypted with the table's own key, bound by encryption context.
      DOGU_SECRETS_KEY_ID: this.dataTable.encryptionKey.keyArn,
      // Requests per client and minute across all routes (decision 0053); 0 turns the limit off.
      DOGU_RATE_LIMIT_PER_MINUTE: String(rateLimitPerMinute),
    };
    if (loginTokenSeconds !== undefined) {
      environment.DOGU_LOGIN_TOKEN_SECONDS = String(loginTokenSeconds);
    }

    // One role per set of needs, derived from what each function composes (decision 0051).
    this.functionRoles = new FunctionRoles(this, 'FunctionRoles', {
      stage,
      table: this.dataTable.table,
      key: this.dataTable.encryptionKey,
      signingKey: this.signingKey.secret,
    });
    // Each entry carries the function name (Powertools logger), so one group stays searchable.
    this.apiLogGroup = new LogGroup(this, 'ApiFunctionLogs', {
      retention: logRetention,
      removalPolicy: isProduction ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    const functionsByHandler = new Map<string, IFunction>();
    for (const handler of deployableHandlers()) {
      const role = this.functionRoles.roleFor(handler);
      const { function: fn } = new HandlerFunction(this, `Handler-${handler}`, {
        handler,
        timeout: timeoutByHandler[handler] ?? defaultTimeout,
        environment,
        retainLogs: isProduction,
        role,
        logGroup: this.apiLogGroup,
      });
      this.functionRoles.allowLogs(role, this.apiLogGroup);
      functionsByHandler.set(handler, fn);
    }
    this.functionsByHandler = functionsByHandler;
    this.scheduling = new Scheduling(this, 'Scheduling', {
      stage,
      environment,
      apiFunctions: functionsByHandler.values(),
      functionRoles: this.functionRoles,
      retainLogs: isProduction,
    });

    // Uploaded data-source files (protosets): the bucket's name only for the functions that keep
    // them or run actions (their roles are shared only with functions of the same needs).
    const logs = new LogBucket(this, 'AccessLogs', { retain: isProduction });
    this.blobs = new BlobBucket(this, 'Blobs', { logBucket: logs.bucket });
    for (const handler of fileWriters) {
      const fn = functionsByHandler.get(handler);
      if (fn) this.blobs.allowReadWrite(fn as LambdaFunction);
    }
    for (const handler of actionRunners) {
      const fn = functionsByHandler.get(handler);
      if (fn) this.blobs.allowRead(fn as LambdaFunction);
    }
    for (const fn of this.scheduling.actionRunners) this.blobs.allowRead(fn);
    // Large execution arguments and results (decision 0056), through the roles of the need-sets that
    // compose the execution-payloads group: those that run actions keep them (put and get), the
    // link route only reads (to presign). No other role names the bucket.
    const payloads = new PayloadBucket(this, 'Payloads', { logBucket: logs.bucket });
    // Every project's audit chain head, hourly, into a bucket under Object Lock (decision 0182).
    this.auditAnchor = new AuditAnchor(this, 'AuditAnchor', {
      environment,
      functionRoles: this.functionRoles,
      logGroup: this.apiLogGroup,
      logBucket: logs.bucket,
      ...(props.auditAnchorRetentionDays ? { retentionDays: props.auditAnchorRetentionDays } : {}),
    });
    for (const { role, needs } of this.functionRoles.entries) {
      if (!needs.includes('execution-payloads')) continue;
      if (needs.includes('run-actions')) payloads.allowWrite(role);
      else payloads.allowRead(role);
    }
    for (const construct of this.node.findAll()) {
      if (construct instanceof HandlerFunction && needsOf(construct.handler).includes('execution-payloads')) {
        payloads.tell(construct.function);
      }
    }
    grantConnectorPermissions(
      [...actionRunners.flatMap((h) => functionsByHandler.get(h) ?? []), ...this.scheduling.actionRunners],
      functionRoleKinds,
      connectorResources,
    );

    // JavaScript actions and transformers run in a function whose role grants nothing (decision 0039).
    const sandbox = new ScriptSandbox(this, 'ScriptSandbox');
    for (const handler of actionRunners) {
      const fn = functionsByHandler.get(handler);
      if (fn) sandbox.allowInvoke(fn as LambdaFunction);
    }
    for (const fn of this.scheduling.actionRunners) sandbox.allowInvoke(fn);

    const accessLog = new ApiAccessLog(this, 'ApiAccessLog', { retain: isProduction });
    this.httpApi = new DoguHttpApi(this, 'Http', {
      stage,
      functionsByHandler,
      throttle: apiThrottle,
      accessLog: accessLog.settings,
      ...(routes ? { routes } : {}),
    });

    // The service's own IdP (spec 5.2): its issuer is this API, its keys a secret that starts empty
    // and is filled and rotated by infra/scripts/rotate-idp-key.ts (Lambdas never create keys: two
    // cold starts would race).
    const idpKeys = new Secret(this, 'IdpSigningKeys', {
      description: `Dogu (${stage}) own IdP signing keys (JWK document)`,
      secretStringValue: SecretValue.unsafePlainText('{"keys":[]}'),
      removalPolicy: isProduction ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    acknowledge(
      idpKeys,
      'SMG4',
      'Rotated by infra/scripts/rotate-idp-key.ts, which keeps the previous key published until its tokens expire (docs/deploy.md).',
    );
    for (const role of this.functionRoles.rolesWith('idp-keys')) idpKeys.grantRead(role);
    for (const fn of [...functionsByHandler.values(), ...this.scheduling.functions]) {
      const lambdaFunction = fn as LambdaFunction;
      lambdaFunction.addEnvironment('DOGU_IDP_ISSUER', `${this.httpApi.defaultStage.url}idp`);
      lambdaFunction.addEnvironment('DOGU_IDP_KEYS_SECRET_ARN', idpKeys.secretArn);
    }
    new CfnOutput(this, 'IdpSigningKeysSecretArn', { value: idpKeys.secretArn });

    // SSO against the company's IdP (docs/deploy.md): the public URL and the IdP's client ids.
    const ssoSettings: Record<string, string | undefined> = {
      DOGU_PUBLIC_URL: this.httpApi.defaultStage.url.replace(/\/$/, ''),
      DOGU_OIDC_ISSUER: this.node.tryGetContext('oidcIssuer'),
      DOGU_OIDC_CLI_CLIENT_ID: this.node.tryGetContext('oidcCliClientId'),
      DOGU_OIDC_CONSOLE_CLIENT_ID: this.node.tryGetContext('oidcConsoleClientId'),
      // Google Sheets' OAuth client id (docs/sheets.md); its secret goes on the data source (KMS).
      DOGU_GOOGLE_OAUTH_CLIENT_ID: this.node.tryGetContext('googleOAuthClientId'),
      // Who administers accounts (docs/accounts.md): there is no loopback administrator on AWS.
      DOGU_ACCOUNT_ADMINS: this.node.tryGetContext('accountAdmins'),
    };
    for (const fn of [...functionsByHandler.values(), ...this.scheduling.functions]) {
      for (const [name, value] of Object.entries(ssoSettings)) {
        if (value) (fn as LambdaFunction).addEnvironment(name, value);
      }
    }

    // CloudFront proves itself to the API with this value, so the API can trust the viewer address
    // it adds (shared/http/viewer-ip.ts; decision 0053). The API functions read it from Secrets
    // Manager at run time (decision 0170): their configuration holds only the secret's ARN.
    const originVerify = new Secret(this, 'OriginVerify', {
      description: `Dogu (${stage}) header value CloudFront sends to the API`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    const apiRoles = new Set([...functionsByHandler.values()].map((fn) => (fn as LambdaFunction).role!));
    for (const role of apiRoles) originVerify.grantRead(role);
    for (const fn of functionsByHandler.values()) {
      (fn as LambdaFunction).addEnvironment(originVerifySecretEnv, originVerify.secretArn);
    }
    // Rotated every 30 days; CloudFront takes the value from a KeyValueStore the rotation writes, so
    // it is in no template, distribution or function configuration (decision 0171).
    const originVerifyRotation = new OriginVerifyRotation(this, 'OriginVerifyRotation', {
      secret: originVerify,
      stage,
      logGroup: this.scheduling.logGroup,
    });

    // The console on S3 + CloudFront; through it the API shares the console's origin (DOGU_PUBLIC_URL).
    const syncExecutions = new SyncExecutionOrigin(this, 'SyncExecutions', {
      executeAction: functionsByHandler.get('execute-action') as LambdaFunction,
    });
    this.console = new ConsoleHosting(this, 'Console', {
      httpApi: this.httpApi.api,
      apiBehaviorsFirst: syncExecutions.behaviors,
      // Not execute-action (the distribution points at its function URL: a cycle) nor the workers
      // (they set no cookies and send no invitations): only what builds links or cookies reads it.
      publicUrlFor: [...functionsByHandler].flatMap(([handler, fn]) =>
        handler === 'execute-action' ? [] : [fn],
      ),
      retain: isProduction,
      logBucket: logs.bucket,
      originVerify: { store: originVerifyRotation.store, ready: originVerifyRotation.ready },
      ...(domain ? { domain } : {}),
      ...(webAclArn ? { webAclArn } : {}),
    });

    // Only the functions that run actions (they compose the action engines) go into the VPC.
    if (network) {
      this.network = new Network(this, 'Network', network);
      for (const construct of this.node.findAll()) {
        if (construct instanceof HandlerFunction && runsActions(construct.handler)) {
          this.network.attach(construct.function);
        }
      }
      this.scheduling.longJobs.placeIn(this.network);
    }

    // Scheduled work may not take the API's concurrency (docs/deploy.md, "Limits").
    reserveConcurrency(this.scheduling, workerConcurrency);
    // Alarms, dashboard, logs and traces over everything above, found in the construct tree so
    // functions and state machines added by other constructs are watched too (decision 0052).
    const all = this.node.findAll();
    this.operations = new Operations(this, 'Operations', {
      stage,
      functions: all.filter((c): c is LambdaFunction => c instanceof LambdaFunction),
      stateMachines: all.filter((c): c is StateMachine => c instanceof StateMachine),
      table: this.dataTable.table,
      deadLetterQueues: [this.scheduling.deadLetterQueue],
      apiLogGroup: this.apiLogGroup,
      httpApiId: this.httpApi.api.apiId,
      alarmEmail,
      retainLogs: isProduction,
    });

    // Through CloudFront: API Gateway's own URL answers only the IdP's public documents (decision 0172).
    new CfnOutput(this, 'ApiUrl', {
      value: `${this.console.url}/`,
      description: 'Base URL of the API (the console URL: the API is served through CloudFront only)',
    });
    new CfnOutput(this, 'TableName', { value: this.dataTable.table.tableName });
    new CfnOutput(this, 'SigningKeySecretArn', { value: this.signingKey.secret.secretArn });
    // For an on-demand rotation: aws secretsmanager rotate-secret --secret-id <this> (docs/deploy.md).
    new CfnOutput(this, 'OriginVerifySecretArn', { value: originVerify.secretArn });
  }
}
