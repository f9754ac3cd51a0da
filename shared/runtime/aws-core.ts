/**
 * The core services of a Lambda container (every function has them), configured by the environment
 * the CDK stack sets. Service groups (shared/runtime/groups/) add the rest where a function uses it.
 */
import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createAccountServices } from '../adapters/auth/account-services.ts';
import { TokenService } from '../adapters/auth/token-service.ts';
import { CachingStore } from '../adapters/caching-store.ts';
import { createDocumentClient } from '../adapters/dynamodb/client.ts';
import { DynamoDbAccountStore } from '../adapters/dynamodb/dynamodb-account-store.ts';
import { DynamoDbAuditLog } from '../adapters/dynamodb/dynamodb-audit-log.ts';
import { DynamoDbCoordination } from '../adapters/dynamodb/dynamodb-coordination.ts';
import { DynamoDbExecutionStore } from '../adapters/dynamodb/dynamodb-execution-store.ts';
import { DynamoDbIdentityStore } from '../adapters/dynamodb/dynamodb-identity-store.ts';
import { DynamoDbOAuthStore } from '../adapters/dynamodb/dynamodb-oauth-store.ts';
import { DynamoDbReviewStore } from '../adapters/dynamodb/dynamodb-review-store.ts';
import { DynamoDbStore } from '../adapters/dynamodb/dynamodb-store.ts';
import { systemClock, uuidV7Ids } from '../adapters/ids.ts';
import { createOidcServices } from '../adapters/oidc/oidc-services.ts';
import { DynamoDbRateLimiter } from '../adapters/rate-limit/dynamodb-rate-limiter.ts';
import { mcpToolCallsPerMinuteFromEnv } from '../domain/agents/tool-call-limit.ts';
import { rateLimitPerMinuteFromEnv } from '../domain/rate-limit.ts';
import { viewRunsPerMinuteFromEnv } from '../domain/views/view-run-limit.ts';
import type { CoreServices } from './core-services.ts';

export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is not set.`);
  return value;
}

let documentClient: DynamoDBDocumentClient | undefined;

/** One DynamoDB client per container, shared by the core and every group's store. */
export function sharedDocumentClient(): DynamoDBDocumentClient {
  documentClient ??= createDocumentClient();
  return documentClient;
}

export async function createAwsCore(): Promise<CoreServices> {
  // Other containers write too: cached definitions live briefly (docs/decisions/0007).
  const cacheMs = Number(process.env.DOGU_DEFINITION_CACHE_MS ?? 5_000);
  const tableName = requiredEnv('DOGU_TABLE_NAME');
  const store = new CachingStore(new DynamoDbStore(sharedDocumentClient(), tableName), cacheMs);
  const identities = new DynamoDbIdentityStore(sharedDocumentClient(), tableName);
  const signingKey = await getSecret(requiredEnv('DOGU_SIGNING_KEY_SECRET_ARN'), { maxAge: 300 });
  if (typeof signingKey !== 'string') throw new Error('The signing key secret must be a string.');
  const perMinute = rateLimitPerMinuteFromEnv(process.env);
  const viewRunsPerMinute = viewRunsPerMinuteFromEnv(process.env);
  const toolCallsPerMinute = mcpToolCallsPerMinuteFromEnv(process.env);
  return {
    ...(perMinute > 0
      ? { rateLimiter: new DynamoDbRateLimiter(sharedDocumentClient(), tableName, perMinute) }
      : {}),
    ...(viewRunsPerMinute > 0
      ? {
          viewRunLimit: {
            limiter: new DynamoDbRateLimiter(sharedDocumentClient(), tableName, viewRunsPerMinute),
            perMinute: viewRunsPerMinute,
          },
        }
      : {}),
    ...(toolCallsPerMinute > 0
      ? {
          mcpToolCallLimit: {
            limiter: new DynamoDbRateLimiter(sharedDocumentClient(), tableName, toolCallsPerMinute),
            perMinute: toolCallsPerMinute,
          },
        }
      : {}),
    store,
    executions: new DynamoDbExecutionStore(sharedDocumentClient(), tableName),
    identities,
    reviews: new DynamoDbReviewStore(sharedDocumentClient(), tableName),
    coordination: new DynamoDbCoordination(sharedDocumentClient(), tableName),
    definitions: store,
    tokens: new TokenService(new TextEncoder().encode(signingKey)),
    audit: new DynamoDbAuditLog(sharedDocumentClient(), tableName),
    mcpOAuth: new DynamoDbOAuthStore(sharedDocumentClient(), tableName),
    clock: systemClock,
    ids: uuidV7Ids,
    settings: {
      localLogin: false,
      loginTokenSeconds: Number(process.env.DOGU_LOGIN_TOKEN_SECONDS ?? 12 * 3600),
      // API Gateway gives up after 30 s; the stack sets 28 s so the run is cancelled and recorded first.
      maxExecutionMs: Math.min(Number(process.env.DOGU_MAX_EXECUTION_MS ?? 28_000), 60_000),
      // CloudFront waits 60 s for the function URL: cut at 57 s so the outcome is recorded and answered.
      ...(process.env.DOGU_MAX_URL_EXECUTION_MS
        ? { maxFunctionUrlExecutionMs: Math.min(Number(process.env.DOGU_MAX_URL_EXECUTION_MS), 60_000) }
        : {}),
      // Lambda stops at 15 minutes: the job Lambda's run is cut a little earlier so it is recorded (decision 0015).
      maxJobExecutionMs: Math.min(Number(process.env.DOGU_MAX_JOB_EXECUTION_MS ?? 14 * 60_000), 30 * 60_000),
    },
    oidc: createOidcServices({ identities, clock: systemClock, env: process.env }),
    // Every handler checks the caller's account (disabled users are refused everywhere within this
    // time, as other containers change accounts too).
    accounts: createAccountServices(
      new DynamoDbAccountStore(sharedDocumentClient(), tableName),
      Number(process.env.DOGU_USER_CACHE_MS ?? 5_000),
    ),
  };
}
