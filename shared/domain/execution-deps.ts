/** What running an action needs from the runtime: the ports of the execute path. */
import type { FileStorage } from './files/model.ts';
import type { OwnIdp } from './identity/own-idp.ts';
import type { Notifier } from './notifications/ports.ts';
import type {
  ActionEngines,
  Clock,
  ExecutionStore,
  IdGenerator,
  PayloadStore,
  ScriptSandbox,
  Store,
} from './ports.ts';
import type { ReviewStore } from './reviews.ts';
import type { SecretValues } from './secret-values.ts';

export interface ExecutionDeps {
  store: Store;
  /** Where the run is recorded as it starts and as it ends. */
  executions: ExecutionStore;
  /** Where a review-gated run files its request. */
  reviews: ReviewStore;
  /** Runs each data-source kind's actions (shared/connectors/ behind this port). */
  engines: ActionEngines;
  secrets: SecretValues;
  clock: Clock;
  ids: IdGenerator;
  /** Spec 8: a normal execution stops after one minute (less where the bridge cuts earlier). */
  maxExecutionMs: number;
  /** Reports finished runs and review requests to the project's notification rules (never blocks a run). */
  notifications?: Notifier;
  /** Uploaded files (protosets) of data sources whose kind keeps them. */
  files?: FileStorage;
  /** Dogu's own IdP: federated storage connections trade its ID tokens for cloud credentials. */
  idp?: OwnIdp;
  /** Runs JavaScript actions and result transformers in isolation (docs/javascript.md). */
  sandbox?: ScriptSandbox;
  /** Keeps arguments and results too large to record or answer inline (decision 0056). */
  payloads?: PayloadStore;
}
