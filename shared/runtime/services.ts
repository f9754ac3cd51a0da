/**
 * The composition root: services are created once per container (Lambda) or
 * once per process (embedded runtime) and shared by every handler.
 */
import type { TokenService } from '../adapters/auth/token-service.ts';
import type { AuditLog } from '../domain/audit.ts';
import type { OwnIdp } from '../domain/identity/own-idp.ts';
import type { OidcServices } from '../domain/identity/token-exchange.ts';
import type {
  Clock,
  ConnectorFactory,
  DefinitionReader,
  HttpClient,
  IdGenerator,
  Store,
} from '../domain/ports.ts';
import type { SecretValues } from '../domain/secret-values.ts';

export interface RuntimeSettings {
  /** Embedded runtime only: allows the loopback admin login. */
  localLogin: boolean;
  /** Lifetime of login tokens issued here, in seconds. */
  loginTokenSeconds: number;
  maxExecutionMs: number;
}

export interface Services {
  store: Store;
  /** Reads of definitions; may be cached in front of the store. */
  definitions: DefinitionReader;
  tokens: TokenService;
  connectors: ConnectorFactory;
  http: HttpClient;
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
