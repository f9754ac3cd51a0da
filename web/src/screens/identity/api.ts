/** Shapes and paths of members, user groups, service accounts and trust policies. */
import { pathOf } from '../../api/client.ts';
import type { Role } from '../../api/types.ts';

export const roles: Role[] = ['admin', 'development_lead', 'developer', 'operations_lead', 'member'];

export interface Member {
  principalId: string;
  kind: 'user' | 'service_account';
  email?: string;
  name?: string;
  role?: Role;
  groups: { id: string; name: string; role?: Role }[];
  effectiveRole?: Role;
}

export interface UserGroup {
  id: string;
  name: string;
  role?: Role;
  members: string[];
  version?: number;
}

export interface ServiceAccount {
  id: string;
  email: string;
  name: string;
  description?: string;
  disabled?: boolean;
  createdAt: string;
}

export interface TrustPolicy {
  id: string;
  issuer: string;
  audience: string;
  boundClaims: { key: string; pattern: string }[];
}

const project = (p: string) => pathOf`/api/v1/projects/${p}`;

export const identityPaths = {
  members: (p: string) => `${project(p)}/members`,
  member: (p: string, id: string) => `${project(p)}${pathOf`/members/${id}`}`,
  userGroups: (p: string) => `${project(p)}/user-groups`,
  userGroup: (p: string, id: string) => `${project(p)}${pathOf`/user-groups/${id}`}`,
  serviceAccounts: (p: string) => `${project(p)}/service-accounts`,
  serviceAccount: (p: string, id: string) => `${project(p)}${pathOf`/service-accounts/${id}`}`,
  revokeTokens: (p: string, id: string) => `${project(p)}${pathOf`/service-accounts/${id}/revoke-tokens`}`,
  trustPolicies: (p: string, id: string) => `${project(p)}${pathOf`/service-accounts/${id}/trust-policies`}`,
  trustPolicy: (p: string, id: string, policyId: string) =>
    `${project(p)}${pathOf`/service-accounts/${id}/trust-policies/${policyId}`}`,
};
