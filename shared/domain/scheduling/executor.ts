/**
 * Who a scheduled run executes as (spec 2.8). A user executor is the member who sets it (a member
 * cannot make a job run as somebody else); a service account must belong to the project, be able to
 * execute the action, be set by a member who can execute it too, and the environment must not
 * restrict usage. With a service account, `currentUser.*` are empty strings.
 */
import { resolveExecutableAction } from '../authorize.ts';
import { DoguError } from '../errors.ts';
import type { IdentityStore } from '../identity/model.ts';
import type { Action, Principal } from '../model.ts';
import type { Store } from '../ports.ts';
import type { Executor } from './model.ts';

/** Users come from the store, service accounts from the identities. */
export interface ExecutorDeps {
  store: Store;
  identities: IdentityStore;
}

/** The principal a stored executor runs as; a DoguError when it can no longer run. */
export async function principalOfExecutor(
  { store, identities }: ExecutorDeps,
  projectId: string,
  executor: Executor,
): Promise<Principal> {
  if (executor.kind === 'service_account') {
    const account = await identities.getServiceAccount(projectId, executor.id);
    if (!account || account.disabled) {
      throw new DoguError(
        'forbidden',
        `The executor, service account '${executor.email}', ${account ? 'is disabled' : 'no longer exists'}.`,
      );
    }
    return { kind: 'service_account', id: account.id, email: account.email, name: account.name };
  }
  const [user] = await store.getUsers([executor.id]);
  if (!user) throw new DoguError('forbidden', `The executor, user '${executor.email}', no longer exists.`);
  return { kind: 'user', id: user.id, email: user.email, name: user.name };
}

/** The executor a create or change asks for, checked against every rule; `current` is kept when none is asked. */
export async function chooseExecutor(
  deps: ExecutorDeps,
  setter: Principal,
  target: { projectId: string; environmentId: string; actionId: string },
  requested: { kind: 'user' | 'service_account'; id: string } | undefined,
  current: Executor | undefined,
): Promise<{ executor: Executor; action: Action }> {
  // The setter must be able to run what they schedule.
  const { store } = deps;
  const { action, environment } = await resolveExecutableAction(store, setter, target).catch((error) => {
    // Nothing published in a protected environment is the same 409 a run gets: it says what to do.
    if (error instanceof DoguError && error.extra?.reason === 'not_published') throw error;
    throw refusal('/actionId', `You cannot execute action '${target.actionId}': ${messageOf(error)}`);
  });
  let executor: Executor;
  if (!requested) executor = current ?? self(setter);
  else if (requested.kind === 'user') {
    if (requested.id !== setter.id && requested.id !== current?.id) {
      throw refusal(
        '/executor/id',
        'A user executor can only be yourself; to run as someone else, use a service account of the project.',
      );
    }
    executor = requested.id === setter.id ? self(setter) : current!;
  } else {
    const account = await deps.identities.getServiceAccount(target.projectId, requested.id);
    if (!account || account.disabled) {
      throw refusal(
        '/executor/id',
        account
          ? `Service account '${account.email}' is disabled.`
          : `Service account '${requested.id}' does not belong to project '${target.projectId}'.`,
      );
    }
    if (environment.usageRestricted) {
      throw refusal(
        '/executor',
        `Environment '${environment.id}' restricts usage; a service account cannot be the executor there.`,
      );
    }
    executor = { kind: 'service_account', id: account.id, email: account.email };
  }
  if (executor.kind === 'service_account' || executor.id !== setter.id) {
    const principal = await principalOfExecutor(deps, target.projectId, executor).catch((error) => {
      throw refusal('/executor', messageOf(error));
    });
    await resolveExecutableAction(store, principal, target).catch((error) => {
      throw refusal(
        '/executor',
        `The executor '${executor.email}' cannot execute action '${target.actionId}': ${messageOf(error)}`,
      );
    });
  }
  return { executor, action };
}

const self = (principal: Principal): Executor => ({
  kind: principal.kind,
  id: principal.id,
  email: principal.email,
});

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const refusal = (pointer: string, detail: string) =>
  new DoguError('invalid_definition', detail, { errors: [{ pointer, detail }] });
