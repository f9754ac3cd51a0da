/**
 * What each project role may do. Every management and execution endpoint asks
 * `requireRight`; a refusal names the missing right. (Governance extends this.)
 */
import { DoguError } from './errors.ts';
import type { Membership, Role } from './model.ts';

export const rights = [
  'view',
  'execute',
  'edit_actions',
  'manage_data_sources',
  'manage_variables',
  'manage_secrets',
] as const;
export type Right = (typeof rights)[number];

const everything = new Set<Right>(rights);
export const rightsOfRole: Record<Role, ReadonlySet<Right>> = {
  admin: everything,
  development_lead: everything,
  developer: new Set<Right>(['view', 'execute', 'edit_actions', 'manage_variables']),
  operations_lead: new Set<Right>(['view', 'execute']),
  // Spec 2.1: by default anyone in the project may execute.
  member: new Set<Right>(['view', 'execute']),
};

export function requireRight(
  membership: Membership | undefined,
  projectId: string,
  right: Right,
): Membership {
  if (!membership) throw new DoguError('forbidden', `You are not a member of project '${projectId}'.`);
  if (!rightsOfRole[membership.role].has(right)) {
    throw new DoguError(
      'forbidden',
      `Your role '${membership.role}' lacks the right '${right}' in project '${projectId}'.`,
      {
        extra: { missingRight: right },
      },
    );
  }
  return membership;
}
