/**
 * The composition root. Every function gets the core services; beside them it names the service
 * groups it uses (secret values, connector catalog or action engines, own IdP, scheduling), so a
 * Lambda bundle holds only the SDK clients and drivers its handlers use (docs/decisions/0022).
 * On AWS each group is built once per container, on the first request that needs it; the
 * embedded runtime provides every service at once and each handler sees only what it composed,
 * so a missing group fails locally exactly as it would on AWS.
 */
import type { FileStorage } from '../domain/files/model.ts';
import type { OwnIdp } from '../domain/identity/own-idp.ts';
import type { NotificationCenter } from '../domain/notifications/center.ts';
import type { ActionEngines, PayloadStore, ScriptSandbox } from '../domain/ports.ts';
import type { SchedulingDeps } from '../domain/scheduling/deps.ts';
import type { JobRunner, Scheduler, SchedulingStore } from '../domain/scheduling/ports.ts';
import type { SecretValues } from '../domain/secret-values.ts';
import { type CoreServices, coreServiceKeys } from './core-services.ts';

export interface Services extends CoreServices {
  /** Each data-source kind's engine, its runtime loaded on first use (shared/connectors/). */
  engines: ActionEngines;
  secrets: SecretValues;
  /** The service's own IdP: ID tokens for storage connections (spec 5.2). */
  idp: OwnIdp;
  /** Cron jobs, runs, reservations, batches (docs/scheduling.md, docs/batch.md). */
  schedules: SchedulingStore;
  /** Fires scheduled times: EventBridge Scheduler on AWS, in-process timers locally. */
  scheduler: Scheduler;
  /** Runs long work: Step Functions on AWS, in-process locally. */
  jobs: JobRunner;
  /** Notification targets, rules and deliveries with retries (docs/notifications.md). */
  notifications: NotificationCenter;
  /** Uploaded data-source files (protosets): blobs (S3 / data directory), versions, upload tokens. */
  files: FileStorage;
  /** JavaScript actions and transformers: worker threads locally, a dedicated function on AWS. */
  sandbox: ScriptSandbox;
  /** Execution arguments and results too large to record or answer inline (decision 0056). */
  payloads: PayloadStore;
}

/** Services a function may compose beside the core ones (one module each in shared/runtime/groups/). */
export interface ServiceGroup<T extends object> {
  name: string;
  /** The group out of services provided whole (embedded runtime, tests). */
  pick(services: Services): T;
  /**
   * Builds the group on AWS, once per container; SDK clients come in by dynamic import. `use`
   * gives another group, built once for every group and handler that needs it.
   */
  createOnAws(core: CoreServices, use: <G extends object>(group: ServiceGroup<G>) => Promise<G>): Promise<T>;
}

/** The services one function uses: the core ones and its groups. `S` is what its handlers see. */
export interface Composition<S extends CoreServices> {
  readonly groups: readonly ServiceGroup<object>[];
  /** Type only: never set. */
  readonly services?: S;
}

type GroupServices<G> = G extends ServiceGroup<infer T> ? T : never;
type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

export function compose<const G extends readonly ServiceGroup<object>[]>(
  ...groups: G
): Composition<CoreServices & Intersection<GroupServices<G[number]>>> {
  return { groups };
}

export const coreOnly: Composition<CoreServices> = { groups: [] };

/** The services as the scheduling use cases see them. */
export function schedulingDeps(
  services: CoreServices & Pick<Services, 'engines' | 'secrets' | 'schedules' | 'scheduler' | 'jobs'>,
): SchedulingDeps {
  return {
    ...services,
    maxExecutionMs: services.settings.maxExecutionMs,
    maxJobExecutionMs: services.settings.maxJobExecutionMs,
  };
}

let provided: Promise<Services> | undefined;
let factory: (() => Promise<Services>) | undefined;
let views = new WeakMap<Composition<CoreServices>, Promise<CoreServices>>();

/** The embedded runtime (or a test) registers how to build every service at once. */
export function provideServices(create: () => Promise<Services>): void {
  factory = create;
  provided = undefined;
  views = new WeakMap();
}

/** The services of one function's composition; handlers ask, the runtime decides how to build them. */
export function getServices<S extends CoreServices>(composition: Composition<S>): Promise<S>;
export function getServices(): Promise<CoreServices>;
export function getServices(composition: Composition<CoreServices> = coreOnly): Promise<CoreServices> {
  let view = views.get(composition);
  if (!view) {
    // With nothing provided we are in a Lambda container: build the AWS services group by group.
    view = factory ? viewOfProvided(composition) : composeOnAws(composition);
    views.set(composition, view);
    view.catch(() => views.delete(composition)); // a failed cold start may succeed on the next request
  }
  return view;
}

async function viewOfProvided(composition: Composition<CoreServices>): Promise<CoreServices> {
  if (!provided) {
    provided = factory!();
    provided.catch(() => {
      provided = undefined;
    });
  }
  const all = await provided;
  // Optional core services (the rate limiter) are left out when the runtime has none.
  const core = Object.fromEntries(
    coreServiceKeys.filter((key) => all[key] !== undefined).map((key) => [key, all[key]]),
  ) as unknown as CoreServices;
  return Object.assign(core, ...composition.groups.map((group) => group.pick(all)));
}

let awsCore: Promise<CoreServices> | undefined;
const awsGroups = new Map<string, Promise<object>>();

async function composeOnAws(composition: Composition<CoreServices>): Promise<CoreServices> {
  if (!awsCore) {
    awsCore = import('./aws-core.ts').then((m) => m.createAwsCore());
    awsCore.catch(() => {
      awsCore = undefined;
    });
  }
  const core = await awsCore;
  const use = <G extends object>(group: ServiceGroup<G>): Promise<G> => {
    let built = awsGroups.get(group.name) as Promise<G> | undefined;
    if (!built) {
      built = group.createOnAws(core, use);
      built.catch(() => awsGroups.delete(group.name));
      awsGroups.set(group.name, built);
    }
    return built;
  };
  const groups = await Promise.all(composition.groups.map(use));
  return Object.assign({}, core, ...groups);
}
