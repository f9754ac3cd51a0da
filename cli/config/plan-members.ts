/**
 * Plans the `members` key: users by e-mail address (ids differ between installations) with their
 * direct role. A new member is added by e-mail (POST), so the service resolves the address; a role
 * change is a PUT by the id the project's member list gives. Nobody is ever removed.
 */
import { memberPath, membersPath, type StoredMember } from './management-api.ts';
import type {
  Change,
  PlanInput,
  PlannedResource,
  PlannedWrites,
  PlannerResult,
  PlanProblem,
} from './plan-types.ts';

/** Lower-case e-mail address → the member (users only: service accounts have no address). */
export function membersByEmail(members: readonly StoredMember[]): Map<string, StoredMember> {
  return new Map(
    members.flatMap((m) => (m.kind === 'user' && m.email ? [[m.email.toLowerCase(), m] as const] : [])),
  );
}

export function planMembers({ config, state, projectId }: PlanInput): PlannerResult {
  const byEmail = membersByEmail(state.members);
  const planned = config.members.map((member, index): PlannedWrites => {
    const stored = byEmail.get(member.email.toLowerCase());
    const current = stored?.role;
    const change: Change =
      current === undefined ? 'create' : current === member.role ? 'unchanged' : 'update';
    const resource: PlannedResource = {
      kind: 'member' as const,
      id: member.email,
      filePath: ['members', index],
      change,
      fields:
        change === 'create'
          ? [{ kind: 'added' as const, path: [], after: member.role }]
          : change === 'update'
            ? [{ kind: 'changed' as const, path: [], before: current, after: member.role }]
            : [],
      writeOnly: [],
    };
    if (change !== 'update' || !stored) {
      return {
        resource,
        writes: [
          {
            phase: 'members',
            step: {
              path: membersPath,
              method: 'POST',
              body: member,
              // User groups saved later name the new member by address.
              identifies: { map: 'principals', key: member.email.toLowerCase(), field: 'principalId' },
            },
          },
        ],
      };
    }
    return {
      resource,
      writes: [
        {
          phase: 'memberRoles',
          step: {
            path: memberPath(stored.principalId),
            body: { role: member.role },
            guard: { field: 'role', expected: current },
          },
        },
      ],
    };
  });
  return { planned, problems: lastAdministrator({ config, state, projectId }, byEmail) };
}

/** The service refuses to leave a project without a direct administrator: said before any write. */
function lastAdministrator(
  { config, state, projectId }: Pick<PlanInput, 'config' | 'state' | 'projectId'>,
  byEmail: ReadonlyMap<string, StoredMember>,
): PlanProblem[] {
  const roleInFile = new Map(config.members.map((m) => [m.email.toLowerCase(), m.role]));
  const remaining = state.members.filter((m) => {
    const fromFile = m.kind === 'user' && m.email ? roleInFile.get(m.email.toLowerCase()) : undefined;
    return (fromFile ?? m.role) === 'admin';
  });
  const added = config.members.filter((m) => m.role === 'admin' && !byEmail.has(m.email.toLowerCase()));
  if (remaining.length > 0 || added.length > 0) return [];
  const demoted = config.members.findIndex(
    (m) => byEmail.get(m.email.toLowerCase())?.role === 'admin' && m.role !== 'admin',
  );
  if (demoted < 0) return [];
  return [
    {
      path: ['members', demoted, 'role'],
      message: `this would leave project '${projectId}' without an administrator, which the service refuses`,
    },
  ];
}
