/**
 * Everything Dogu needs in one AWS account and region, for one stage
 * (development, staging, production, ...). Later features add their resources
 * (Scheduler, Step Functions, S3, CloudFront) here as further constructs.
 */
import { CfnOutput, Duration, RemovalPolicy, SecretValue, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { grantConnectorPermissions } from './connector-permissions.ts';
import { ConsoleHosting } from './console-hosting.ts';
import { BlobBucket } from './constructs/blob-bucket.ts';
import { DataTable } from './constructs/data-table.ts';
import { HandlerFunction, logRetention } from './constructs/handler-function.ts';
import { DoguHttpApi } from './constructs/http-api.ts';
import { PayloadBucket } from './constructs/payload-bucket.ts';
import { ScriptSandbox } from './constructs/script-sandbox.ts';
import { SigningKey } from './constructs/signing-key.ts';
import { functionUrlTimeout, SyncExecutionOrigin } from './constructs/sync-execution-origin.ts';
import { deployableHandlers, type HandlerName } from './deployable-routes.ts';
import { Scheduling } from './scheduling.ts';

export interface DoguStackProps extends StackProps {
  /** Lower-case name of the stage; 'production' turns on deletion protection and retention. */
  stage: string;
  /** Lifetime of login tokens in seconds; unset keeps the runtime's default (12 hours). */
  loginTokenSeconds?: number;
  /** Data-source kinds that may run with the action functions' own role (their cloudPermissions are granted). */
  functionRoleKinds?: readonly string[];
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
const timeoutByHandler: Partial<Record<HandlerName, Duration>> = {
  // Also served through its function URL, where a run may take 57 s (decision 0055).
  'execute-action': functionUrlTimeout,
  // A connection test or a catalog read may wait for an unreachable host (10 s by default).
  'data-source-connection': executionTimeout,
  // Run now and retry execute the cron job's action at once, as a synchronous execution does.
  'cron-run-now': executionTimeout,
};

/**
 * Per-route defaults for the whole API. Well below the account limit (10,000 rps) so a runaway
 * script cannot starve other APIs in the account or flood the databases actions talk to.
 */
const apiThrottle = { rateLimit: 100, burstLimit: 200 };

/** Handlers that keep and delete uploaded files. */
const fileWriters: readonly HandlerName[] = ['data-sources', 'file-versions', 'upload-protoset'];
/** Handlers that run actions or test connections (an engine may read its data source's files). */
export const actionRunners: readonly HandlerName[] = [
  'execute-action',
  'review-requests',
  'cron-run-now',
  'data-source-connection',
];

const stageNamePattern = /^[a-z][a-z0-9-]{0,30}$/;

export class DoguStack extends Stack {
  readonly dataTable: DataTable;
  readonly signingKey: SigningKey;
  readonly functionsByHandler: ReadonlyMap<string, IFunction>;
  /** The role of the API functions that read no uploaded file (the workers have roles of their own). */
  readonly apiRole: Role;
  /** Every API function role: base, file reader, file writer (decision 0023). */
  readonly apiRoles: readonly Role[];
  readonly apiLogGroup: LogGroup;
  readonly httpApi: DoguHttpApi;
  readonly scheduling: Scheduling;
  readonly blobs: BlobBucket;

  constructor(scope: Construct, id: string, props: DoguStackProps) {
    const { stage, loginTokenSeconds, functionRoleKinds = [], ...stackProps } = props;
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
    };
    if (loginTokenSeconds !== undefined) {
      environment.DOGU_LOGIN_TOKEN_SECONDS = String(loginTokenSeconds);
    }

    // Three roles and one log group for all API functions instead of one each: CloudFormation
    // allows 500 resources per stack and every handler would add three (decision 0023). The roles
    // differ only in the uploaded-files bucket: none, read (action runners), read and write.
    const apiRole = (id: string, what: string) =>
      new Role(this, id, {
        description: `Dogu (${stage}) API functions${what}`,
        assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
        managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
      });
    this.apiRole = apiRole('ApiFunctionRole', '');
    const fileReaderRole = apiRole('ApiFileReaderRole', ' that read uploaded files');
    const fileWriterRole = apiRole('ApiFileWriterRole', ' that keep uploaded files');
    this.apiRoles = [this.apiRole, fileReaderRole, fileWriterRole];
    const roleOf = (handler: HandlerName) =>
      fileWriters.includes(handler)
        ? fileWriterRole
        : actionRunners.includes(handler)
          ? fileReaderRole
          : this.apiRole;
    // Every handler resolves its core services (store and token verifier) on a cold start, even
    // health, so the roles need the table and the key. grantReadWriteData includes the table
    // key's encrypt/decrypt; grantRead is GetSecretValue and DescribeSecret only.
    for (const role of this.apiRoles) {
      this.dataTable.table.grantReadWriteData(role);
      this.signingKey.secret.grantRead(role);
      this.dataTable.encryptionKey.grantEncryptDecrypt(role);
    }
    // Each entry carries the function name (Powertools logger), so one group stays searchable.
    this.apiLogGroup = new LogGroup(this, 'ApiFunctionLogs', {
      retention: logRetention,
      removalPolicy: isProduction ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    const functionsByHandler = new Map<string, IFunction>();
    for (const handler of deployableHandlers()) {
      const { function: fn } = new HandlerFunction(this, `Handler-${handler}`, {
        handler,
        timeout: timeoutByHandler[handler] ?? defaultTimeout,
        environment,
        retainLogs: isProduction,
        role: roleOf(handler),
        logGroup: this.apiLogGroup,
      });
      functionsByHandler.set(handler, fn);
    }
    this.functionsByHandler = functionsByHandler;
    this.scheduling = new Scheduling(this, 'Scheduling', {
      stage,
      environment,
      dataTable: this.dataTable,
      signingKey: this.signingKey,
      apiFunctions: functionsByHandler.values(),
      apiRoles: this.apiRoles,
      retainLogs: isProduction,
    });

    // Uploaded data-source files (protosets): the bucket's name only for the functions that keep
    // them or run actions. The API functions share one role (decision 0023), so its grants are
    // the union of what these need.
    this.blobs = new BlobBucket(this, 'Blobs');
    for (const handler of fileWriters) {
      const fn = functionsByHandler.get(handler);
      if (fn) this.blobs.allowReadWrite(fn as LambdaFunction);
    }
    for (const handler of actionRunners) {
      const fn = functionsByHandler.get(handler);
      if (fn) this.blobs.allowRead(fn as LambdaFunction);
    }
    for (const fn of this.scheduling.actionRunners) this.blobs.allowRead(fn);
    // Large execution arguments and results (decision 0056): kept by whatever runs actions, read by links.
    const payloads = new PayloadBucket(this, 'Payloads');
    const executors = actionRunners.filter((h) => h !== 'data-source-connection');
    for (const fn of [
      ...executors.flatMap((h) => functionsByHandler.get(h) ?? []),
      ...this.scheduling.actionRunners,
    ])
      payloads.allowWrite(fn as LambdaFunction);
    payloads.allowRead(functionsByHandler.get('execution-payloads') as LambdaFunction);
    grantConnectorPermissions(
      [...actionRunners.flatMap((h) => functionsByHandler.get(h) ?? []), ...this.scheduling.actionRunners],
      functionRoleKinds,
    );

    // JavaScript actions and transformers run in a function whose role grants nothing (decision 0039).
    const sandbox = new ScriptSandbox(this, 'ScriptSandbox');
    for (const handler of actionRunners) {
      const fn = functionsByHandler.get(handler);
      if (fn) sandbox.allowInvoke(fn as LambdaFunction);
    }
    for (const fn of this.scheduling.actionRunners) sandbox.allowInvoke(fn);

    this.httpApi = new DoguHttpApi(this, 'Http', {
      stage,
      functionsByHandler,
      throttle: apiThrottle,
    });

    // The service's own IdP (spec 5.2): its issuer is this API, its keys a secret that starts empty
    // and is filled and rotated by infra/scripts/rotate-idp-key.ts (Lambdas never create keys: two
    // cold starts would race).
    const idpKeys = new Secret(this, 'IdpSigningKeys', {
      description: `Dogu (${stage}) own IdP signing keys (JWK document)`,
      secretStringValue: SecretValue.unsafePlainText('{"keys":[]}'),
      removalPolicy: isProduction ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    for (const role of this.apiRoles) idpKeys.grantRead(role);
    for (const worker of this.scheduling.functions) idpKeys.grantRead(worker);
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

    // The console on S3 + CloudFront; through it the API shares the console's origin (DOGU_PUBLIC_URL).
    const syncExecutions = new SyncExecutionOrigin(this, 'SyncExecutions', {
      executeAction: functionsByHandler.get('execute-action') as LambdaFunction,
    });
    new ConsoleHosting(this, 'Console', {
      httpApi: this.httpApi.api,
      apiBehaviorsFirst: syncExecutions.behaviors,
      // Not execute-action (the distribution points at its function URL: a cycle) nor the workers
      // (they set no cookies and send no invitations): only what builds links or cookies reads it.
      publicUrlFor: [...functionsByHandler].flatMap(([handler, fn]) =>
        handler === 'execute-action' ? [] : [fn],
      ),
      retain: isProduction,
    });

    new CfnOutput(this, 'ApiUrl', {
      value: this.httpApi.defaultStage.url,
      description: 'Base URL of the API',
    });
    new CfnOutput(this, 'TableName', { value: this.dataTable.table.tableName });
    new CfnOutput(this, 'SigningKeySecretArn', { value: this.signingKey.secret.secretArn });
  }
}
