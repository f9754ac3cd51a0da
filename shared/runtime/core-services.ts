/**
 * What every function has (authentication, the store, the audit log), apart from how it is built:
 * shared/runtime/aws-core.ts builds it on AWS, the embedded runtime locally, services.ts composes it.
 */
import type { TokenService } from '../adapters/auth/token-service.ts';
import type { AccountServices } from '../domain/accounts/deps.ts';
import type { OAuthStore } from '../domain/agents/oauth/store.ts';
import type { ToolCallLimit } from '../domain/agents/tool-call-limit.ts';
import type { AuditLog } from '../domain/audit.ts';
import type { IdentityStore } from '../domain/identity/model.ts';
import type { OidcServices } from '../domain/identity/token-exchange.ts';
import type {
  Clock,
  Coordination,
  DefinitionReader,
  ExecutionStore,
  IdGenerator,
  Store,
} from '../domain/ports.ts';
import type { ClientRateLimiter } from '../domain/rate-limit.ts';
import type { ReviewStore } from '../domain/reviews.ts';
import type { ViewRunLimit } from '../domain/views/view-run-limit.ts';

export interface RuntimeSettings {
  /** Embedded runtime only: allows the loopback admin login. */
  localLogin: boolean;
  /** Lifetime of login tokens issued here, in seconds. */
  loginTokenSeconds: number;
  maxExecutionMs: number;
  /**
   * On AWS, a synchronous run that came through the function URL behind CloudFront (decision 0055):
   * nearly the spec's full minute, as CloudFront waits 60 s where API Gateway waits 30.
   */
  maxFunctionUrlExecutionMs?: number;
  /** Spec 8: run as a job, 30 minutes (on AWS Lambda's 15-minute maximum bounds it: decision 0015). */
  maxJobExecutionMs: number;
}

/** What every handler has: authentication, the store, the audit log. */
export interface CoreServices {
  /** Definitions: projects, environments, members, data sources, actions and views with their versions. */
  store: Store;
  /** Execution records: written by every run, read by the history and the sweeper. */
  executions: ExecutionStore;
  /**
   * Service accounts and trust policies, never cached here: on AWS a cached account or policy in
   * another container would keep a revoked identity working (BindingChecker says how long it may).
   */
  identities: IdentityStore;
  /** Review requests of review-gated actions (docs/governance.md). */
  reviews: ReviewStore;
  /** Leases and one-time markers shared by every process of the store (member changes, ended sessions). */
  coordination: Coordination;
  /** Reads of definitions; may be cached in front of the store. */
  definitions: DefinitionReader;
  tokens: TokenService;
  /** Append-only record of who did what (docs/governance.md). */
  audit: AuditLog;
  clock: Clock;
  ids: IdGenerator;
  settings: RuntimeSettings;
  /** Token exchange and service-account access tokens (docs/decisions/0013). */
  oidc: OidcServices;
  /** People's accounts: passwords, invitations, disabling, sessions (docs/accounts.md). */
  accounts: AccountServices;
  /** Requests per client and minute (decision 0053); no limit when absent. */
  rateLimiter?: ClientRateLimiter;
  /** Runs per viewer and view and minute (decision 0151); no limit when absent. */
  viewRunLimit?: ViewRunLimit;
  /**
   * Dogu's authorization server for MCP clients: clients, codes, grants, refresh tokens (decision
   * 0230). A core service, not a group: two functions use it, and a group would give each a role of its own.
   */
  mcpOAuth: OAuthStore;
  /** Tool calls per MCP client, principal, project and minute (decision 0236); no limit when absent. */
  mcpToolCallLimit?: ToolCallLimit;
}

export const coreServiceKeys = [
  'store',
  'executions',
  'identities',
  'reviews',
  'coordination',
  'definitions',
  'tokens',
  'audit',
  'clock',
  'ids',
  'settings',
  'oidc',
  'accounts',
  'rateLimiter',
  'viewRunLimit',
  'mcpOAuth',
  'mcpToolCallLimit',
] as const satisfies readonly (keyof CoreServices)[];
