/**
 * Plans the `serviceAccounts` key: accounts by name (ids differ between installations), each with
 * its description, disabled flag, project role (its membership, set through the members API) and
 * trust policies. A new account is created with POST (the service gives it its `sa_…` id); its
 * policies are saved after it, by the id the creation answered. Nothing is ever deleted.
 *
 * Every change of a trust policy revokes the tokens issued under it, so a policy whose content is
 * unchanged gets no request, and a changed one carries a warning in the plan.
 */
import { fieldChanges } from './diff.ts';
import {
  memberPath,
  type StoredServiceAccount,
  type StoredTrustPolicy,
  serviceAccountPath,
  serviceAccountsPath,
  trustPolicyPath,
} from './management-api.ts';
import type { PlanInput, PlannedWrites, PlannerResult, PlanProblem } from './plan-types.ts';
import type { ProjectState } from './project-state.ts';
import type { ServiceAccountInFile, TrustPolicyInFile } from './schema.ts';

export const policyChangeWarning =
  'changing a trust policy revokes the access tokens issued under it: workloads using them must exchange a new ID token';
const disableWarning =
  'disabling the account revokes its access tokens; enabling it again does not bring them back';

/** The account's e-mail address, which the creation also answers: how apply finds the new id. */
export const serviceAccountEmail = (name: string, projectId: string) => `${name}@${projectId}.sa.dogu`;

/** Lower-case e-mail address → id of the project's service accounts. */
export function serviceAccountIdsByEmail(state: ProjectState): [string, string][] {
  return [...state.serviceAccounts.values()].map((a) => [a.email.toLowerCase(), a.id]);
}

/** A trust policy as compared and exported: its content only (no account, generation or timestamps). */
export function comparableTrustPolicy(
  policy: StoredTrustPolicy | TrustPolicyInFile,
): Record<string, unknown> {
  return {
    id: policy.id,
    issuer: policy.issuer,
    audience: policy.audience,
    boundClaims: policy.boundClaims.map(({ key, pattern }) => ({ key, pattern })),
  };
}

/** An account as compared: what PUT replaces (description, disabled) and, when the file names one, the role. */
function comparableAccount(
  account: Pick<StoredServiceAccount | ServiceAccountInFile, 'description' | 'disabled' | 'role'>,
  withRole: boolean,
): Record<string, unknown> {
  return {
    ...(account.description === undefined ? {} : { description: account.description }),
    disabled: account.disabled ?? false,
    ...(withRole && account.role !== undefined ? { role: account.role } : {}),
  };
}

/** An account as exported: no id, e-mail address or timestamps; defaults left out. */
export function exportedServiceAccount(
  account: StoredServiceAccount & { trustPolicies: StoredTrustPolicy[] },
): Record<string, unknown> {
  const policies = [...account.trustPolicies].sort((a, b) => a.id.localeCompare(b.id));
  return {
    name: account.name,
    ...(account.description === undefined ? {} : { description: account.description }),
    ...(account.role === undefined ? {} : { role: account.role }),
    ...(account.disabled ? { disabled: true } : {}),
    ...(policies.length === 0 ? {} : { trustPolicies: policies.map(comparableTrustPolicy) }),
  };
}

export function planServiceAccounts({ config, state, projectId }: PlanInput): PlannerResult {
  const problems: PlanProblem[] = [];
  // Policy ids are unique within a project, not only within an account.
  const ownerOf = new Map<string, string>();
  for (const account of state.serviceAccounts.values())
    for (const policy of account.trustPolicies) ownerOf.set(policy.id, account.name);
  const firstInFile = new Map<string, string>();
  config.serviceAccounts.forEach((account, index) => {
    account.trustPolicies.forEach((policy, i) => {
      const path = ['serviceAccounts', index, 'trustPolicies', i, 'id'];
      const first = firstInFile.get(policy.id);
      if (first !== undefined && first !== account.name)
        problems.push({
          path,
          message: `trust policy ids are unique within a project: '${policy.id}' is also a policy of '${first}' in the file`,
        });
      else firstInFile.set(policy.id, account.name);
      const owner = ownerOf.get(policy.id);
      if (owner !== undefined && owner !== account.name)
        problems.push({
          path,
          message: `trust policy '${policy.id}' belongs to service account '${owner}' in project '${projectId}' (policy ids are unique within a project)`,
        });
    });
  });

  const planned = config.serviceAccounts.flatMap((account, index): PlannedWrites[] => {
    const filePath = ['serviceAccounts', index];
    const stored = state.serviceAccounts.get(account.name);
    const email = serviceAccountEmail(account.name, projectId);
    const fields = stored
      ? fieldChanges(
          // A role the file leaves out is not compared: apply never removes a membership.
          comparableAccount(stored, account.role !== undefined),
          comparableAccount(account, account.role !== undefined),
        )
      : [];
    const changed = (field: string) => fields.some((f) => f.path[0] === field);
    const writes: PlannedWrites['writes'] = [];
    if (!stored) {
      const { trustPolicies: _policies, disabled, ...create } = account;
      writes.push({
        phase: 'serviceAccounts',
        step: {
          path: serviceAccountsPath,
          method: 'POST',
          body: create,
          identifies: { map: 'principals', key: email.toLowerCase(), field: 'id' },
        },
      });
      // Created enabled; a file that creates it disabled disables it right after.
      if (disabled)
        writes.push({
          phase: 'serviceAccounts',
          step: {
            path: serviceAccountPath(''),
            pathFor: (ids) => serviceAccountPath(ids.principals.get(email.toLowerCase()) ?? ''),
            body: updateBody(account),
            note: 'disabled',
          },
        });
    } else {
      if (changed('description') || changed('disabled'))
        writes.push({
          phase: 'serviceAccounts',
          step: {
            path: serviceAccountPath(stored.id),
            body: updateBody(account),
            guard: { field: 'updatedAt', expected: stored.updatedAt },
          },
        });
      if (changed('role'))
        writes.push({
          phase: 'memberRoles',
          step: {
            path: memberPath(stored.id),
            body: { role: account.role },
            guard: { field: 'role', expected: stored.role },
            note: `role ${account.role}`,
          },
        });
    }
    const disabling = account.disabled === true && stored !== undefined && !stored.disabled;
    const accountPlan: PlannedWrites = {
      resource: {
        kind: 'serviceAccount',
        id: account.name,
        filePath,
        change: !stored ? 'create' : fields.length > 0 ? 'update' : 'unchanged',
        fields,
        writeOnly: [],
        ...(disabling ? { warnings: [disableWarning] } : {}),
      },
      writes,
    };

    const policies = account.trustPolicies.map((policy, i): PlannedWrites => {
      const storedPolicy = stored?.trustPolicies.find((p) => p.id === policy.id);
      const policyFields = storedPolicy
        ? fieldChanges(comparableTrustPolicy(storedPolicy), comparableTrustPolicy(policy))
        : [];
      const change = !storedPolicy ? 'create' : policyFields.length > 0 ? 'update' : 'unchanged';
      const path = trustPolicyPath(stored?.id ?? '', policy.id);
      return {
        resource: {
          kind: 'trustPolicy',
          id: `${account.name}.${policy.id}`,
          filePath: [...filePath, 'trustPolicies', i],
          change,
          fields: policyFields,
          writeOnly: [],
          ...(change === 'update' ? { warnings: [policyChangeWarning] } : {}),
        },
        writes: [
          {
            phase: 'trustPolicies',
            step: {
              path,
              ...(stored
                ? {}
                : {
                    pathFor: (ids) =>
                      trustPolicyPath(ids.principals.get(email.toLowerCase()) ?? '', policy.id),
                  }),
              body: policy,
              guard: { field: 'updatedAt', expected: storedPolicy?.updatedAt },
              ...(change === 'update' ? { note: 'tokens issued under it are revoked' } : {}),
            },
          },
        ],
      };
    });
    return [accountPlan, ...policies];
  });
  return { planned, problems };
}

/** PUT replaces description and disabled: absent means cleared, enabled. */
function updateBody(account: ServiceAccountInFile): Record<string, unknown> {
  return {
    ...(account.description === undefined ? {} : { description: account.description }),
    disabled: account.disabled ?? false,
  };
}
