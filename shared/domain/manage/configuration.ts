/** Variables (readable) and secrets (write-only, encrypted) per environment. */
import { nameSchema } from '../definitions/parameter.ts';
import { badRequest, notFound } from '../errors.ts';
import type { Principal } from '../model.ts';
import { secretContext } from '../secret-values.ts';
import { authorize, requireEnvironment } from './access.ts';
import type { ManageDeps } from './data-sources.ts';

const maxValueLength = 16 * 1024;

function checkName(name: string) {
  if (!nameSchema.safeParse(name).success) {
    throw badRequest(
      `'${name}' is not a valid name: use letters, digits and _, starting with a letter or _.`,
    );
  }
}
function checkValue(value: unknown): string {
  if (typeof value !== 'string')
    throw badRequest("'value' must be a string.", [{ pointer: '#/value', detail: 'must be a string' }]);
  if (value.length > maxValueLength) throw badRequest(`'value' is longer than ${maxValueLength} characters.`);
  return value;
}

type Scope = { projectId: string; environmentId: string };

export async function listVariables(deps: Pick<ManageDeps, 'store'>, principal: Principal, scope: Scope) {
  await authorize(deps.store, principal, scope.projectId, 'view');
  await requireEnvironment(deps.store, scope.projectId, scope.environmentId);
  return deps.store.listVariables(scope.projectId, scope.environmentId);
}

export async function putVariable(
  deps: Pick<ManageDeps, 'store'>,
  principal: Principal,
  scope: Scope,
  name: string,
  value: unknown,
) {
  await authorize(deps.store, principal, scope.projectId, 'manage_variables');
  await requireEnvironment(deps.store, scope.projectId, scope.environmentId);
  checkName(name);
  const text = checkValue(value);
  const existed = name in (await deps.store.listVariables(scope.projectId, scope.environmentId));
  await deps.store.putVariable(scope.projectId, scope.environmentId, name, text);
  return { created: !existed };
}

export async function deleteVariable(
  deps: Pick<ManageDeps, 'store'>,
  principal: Principal,
  scope: Scope,
  name: string,
) {
  await authorize(deps.store, principal, scope.projectId, 'manage_variables');
  if (!(await deps.store.deleteVariable(scope.projectId, scope.environmentId, name)))
    throw notFound('Variable', name);
}

/** Names and change times only: a secret's value never leaves the service. */
export async function listSecrets(deps: Pick<ManageDeps, 'store'>, principal: Principal, scope: Scope) {
  await authorize(deps.store, principal, scope.projectId, 'view');
  await requireEnvironment(deps.store, scope.projectId, scope.environmentId);
  const secrets = await deps.store.listSecrets(scope.projectId, scope.environmentId);
  return Object.entries(secrets).map(([name, { updatedAt }]) => ({ name, updatedAt }));
}

export async function putSecret(
  deps: Pick<ManageDeps, 'store' | 'secrets' | 'clock'>,
  principal: Principal,
  scope: Scope,
  name: string,
  value: unknown,
) {
  await authorize(deps.store, principal, scope.projectId, 'manage_secrets');
  await requireEnvironment(deps.store, scope.projectId, scope.environmentId);
  checkName(name);
  const text = checkValue(value);
  const existed = name in (await deps.store.listSecrets(scope.projectId, scope.environmentId));
  const ciphertext = await deps.secrets.encrypt(
    text,
    secretContext(scope.projectId, scope.environmentId, name),
  );
  await deps.store.putSecret(scope.projectId, scope.environmentId, name, {
    ciphertext,
    updatedAt: deps.clock.now().toISOString(),
  });
  return { created: !existed };
}

export async function deleteSecret(
  deps: Pick<ManageDeps, 'store'>,
  principal: Principal,
  scope: Scope,
  name: string,
) {
  await authorize(deps.store, principal, scope.projectId, 'manage_secrets');
  if (!(await deps.store.deleteSecret(scope.projectId, scope.environmentId, name)))
    throw notFound('Secret', name);
}
