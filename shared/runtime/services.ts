/**
 * The composition root: services are created once per container (Lambda) or
 * once per process (embedded runtime) and shared by every handler.
 */
import type { TokenService } from '../adapters/auth/token-service.ts';
import type { AccountServices } from '../domain/accounts/deps.ts';
import type { AuditLog } from '../domain/audit.ts';
import type { FileStorage } from '../domain/files/model.ts';
import type { OwnIdp } from '../domain/identity/own-idp.ts';
import type { OidcServices } from '../domain/identity/token-exchange.ts';
import type { NotificationCenter } from '../domain/notifications/center.ts';
import type {
  ActionEngines,
  Clock,
  DefinitionReader,
  IdGenerator,
  ScriptSandbox,
  Store,
} from '../domain/ports.ts';
import type { SchedulingDeps } from '../domain/scheduling/deps.ts';
import type { JobRunner, Scheduler, SchedulingStore } from '../domain/scheduling/ports.ts';
import type { SecretValues } from '../domain/secret-values.ts';

export interface RuntimeSettings {
  /** Embedded runtime only: allows the loopback admin login. */
  localLogin: boolean;
  /** Lifetime of login tokens issued here, in seconds. */
  loginTokenSeconds: number;
  maxExecutionMs: number;
  /** Spec 8: run as a job, 30 minutes (on AWS Lambda's 15-minute maximum bounds it: decision 0015). */
  maxJobExecutionMs: number;
}

export interface Services {
  store: Store;
  /** Reads of definitions; may be cached in front of the store. */
  definitions: DefinitionReader;
  tokens: TokenService;
  /** Each data-source kind's engine, its runtime loaded on first use (shared/connectors/). */
  engines: ActionEngines;
  secrets: SecretValues;
  /** Append-only record of who did what (docs/governance.md). */
  audit: AuditLog;
  clock: Clock;
  ids: IdGenerator;
  settings: RuntimeSettings;
  /** Token exchange and service-account access tokens (docs/decisions/0013). */
  oidc: OidcServices;
  /** The service's own IdP: ID tokens for storage connections (spec 5.2). */
  idp: OwnIdp;
  /** Cron jobs, runs, reservations, batches (docs/scheduling.md, docs/batch.md). */
  schedules: SchedulingStore;
  /** Fires scheduled times: EventBridge Scheduler on AWS, in-process timers locally. */
  scheduler: Scheduler;
  /** Runs long work: Step Functions on AWS, in-process locally. */
  jobs: JobRunner;
  /** People's accounts: passwords, invitations, disabling, sessions (docs/accounts.md). */
  accounts: AccountServices;
  /** Notification targets, rules and deliveries with retries (docs/notifications.md). */
  notifications: NotificationCenter;
  /** Uploaded data-source files (protosets): blobs (S3 / data directory), versions, upload tokens. */
  files: FileStorage;
  /** JavaScript actions and transformers: worker threads locally, a dedicated function on AWS. */
  sandbox: ScriptSandbox;
}

/** The services as the scheduling use cases see them. */
export function schedulingDeps(services: Services): SchedulingDeps {
  return {
    ...services,
    maxExecutionMs: services.settings.maxExecutionMs,
    maxJobExecutionMs: services.settings.maxJobExecutionMs,
  };
}

let current: Promise<Services> | undefined;
let factory: (() => Promise<Services>) | undefined;

/** The runtime registers how to build services; handlers only ask for them. */
export function provideServices(create: () => Promise<Services>): void {
  factory = create;
  current = undefined;
}

export function getServices(): Promise<Services> {
  if (!current) {
    // With nothing provided we are in a Lambda container: build the AWS services.
    const create = factory ?? (() => import('./aws-services.ts').then((m) => m.createAwsServices()));
    current = create();
    current.catch(() => {
      current = undefined; // a failed cold start may succeed on the next request
    });
  }
  return current;
}
