/**
 * What each project role may do. Every management and execution endpoint asks
 * `requireRight`; a refusal names the missing right. docs/governance.md has
 * the table for people.
 */
import { DoguError } from './errors.ts';
import type { Membership } from './model.ts';
import type { Role } from './roles.ts';

export const rights = [
  'view',
  'execute',
  'edit_actions',
  'publish_versions',
  'approve_reviews',
  'manage_data_sources',
  'manage_variables',
  'manage_secrets',
  'manage_members',
  'manage_action_groups',
  'manage_cron_jobs',
  'manage_project',
  'view_audit',
] as const;
export type Right = (typeof rights)[number];

const everything = new Set<Right>(rights);
export const rightsOfRole: Record<Role, ReadonlySet<Right>> = {
  admin: everything,
  development_lead: everything,
  developer: new Set<Right>([
    'view',
    'execute',
    'edit_actions',
    'manage_variables',
    'manage_action_groups',
    'manage_cron_jobs',
  ]),
  // Spec 5.3: operations leads manage cron jobs too.
  operations_lead: new Set<Right>(['view', 'execute', 'approve_reviews', 'manage_cron_jobs']),
  // Spec 2.1: by default anyone in the project may execute.
  member: new Set<Right>(['view', 'execute']),
};

/** Higher roles first: a principal with several (directly and through groups) holds the highest. */
export const roleRank: readonly Role[] = [
  'admin',
  'development_lead',
  'developer',
  'operations_lead',
  'member',
];

/** Rights are the union over every role held, directly or through user groups. */
export function requireRight<M extends Membership & { roles?: Role[] }>(
  membership: M | undefined,
  projectId: string,
  right: Right,
): M {
  if (!membership) throw new DoguError('forbidden', `You are not a member of project '${projectId}'.`);
  const held = membership.roles ?? [membership.role];
  if (!held.some((role) => rightsOfRole[role].has(right))) {
    const who = held.length === 1 ? `Your role '${held[0]}' lacks` : `Your roles (${held.join(', ')}) lack`;
    throw new DoguError('forbidden', `${who} the right '${right}' in project '${projectId}'.`, {
      extra: { missingRight: right },
    });
  }
  return membership;
}

/**
 * What the caller may do in a project, as every endpoint decides it: the roles held (directly and
 * through user groups, highest first) and the union of their rights. The console reads this instead
 * of guessing from the direct role (GET /api/v1/projects/{id}, `access`).
 */
export function accessOf(membership: Membership & { roles?: Role[] }): {
  role: Role;
  roles: Role[];
  rights: Right[];
} {
  const held = membership.roles ?? [membership.role];
  return {
    role: membership.role,
    roles: [...held],
    rights: rights.filter((right) => held.some((role) => rightsOfRole[role].has(right))),
  };
}
