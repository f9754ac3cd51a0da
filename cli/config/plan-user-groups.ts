/**
 * Plans the `userGroups` key. The file names users by e-mail address, the API by id: addresses are
 * resolved through the project's members (and the file's `members`, which apply adds first), and
 * both sides are compared as addresses, in sorted order (a group's members have no order).
 */
import { principalIdSchema } from '../../shared/domain/definitions/governance.ts';
import { fieldChanges } from './diff.ts';
import { type StoredGroup, userGroupPath } from './management-api.ts';
import { membersByEmail } from './plan-members.ts';
import type { PlanInput, PlannedWrites, PlannerResult, PlanProblem } from './plan-types.ts';
import type { UserGroupInFile } from './schema.ts';

const isPrincipalId = (member: string) => principalIdSchema.safeParse(member).success;

export function planUserGroups({ config, state, projectId }: PlanInput): PlannerResult {
  const problems: PlanProblem[] = [];
  const byEmail = membersByEmail(state.members);
  // Users only: a service account in a group is named by its id.
  const emailOf = new Map(
    state.members.flatMap((m) => (m.kind === 'user' && m.email ? [[m.principalId, m.email] as const] : [])),
  );
  const addedByFile = new Set(config.members.map((m) => m.email.toLowerCase()));
  /** How a member is shown and compared: its e-mail address when there is one, else its id. */
  const shown = (member: string) =>
    isPrincipalId(member)
      ? (emailOf.get(member) ?? member)
      : (byEmail.get(member.toLowerCase())?.email ?? member.toLowerCase());

  const planned = config.userGroups.map((group, index): PlannedWrites => {
    const filePath = ['userGroups', index];
    group.members.forEach((member, i) => {
      if (isPrincipalId(member) || byEmail.has(member.toLowerCase()) || addedByFile.has(member.toLowerCase()))
        return;
      problems.push({
        path: [...filePath, 'members', i],
        message: `'${member}' is not a member of project '${projectId}': add it under members (apply resolves a group's e-mail addresses through the project's members)`,
      });
    });
    const stored = state.userGroups.get(group.id);
    const fields = stored
      ? fieldChanges(comparableUserGroup(stored, shown), comparableUserGroup(group, shown))
      : [];
    return {
      resource: {
        kind: 'userGroup',
        id: group.id,
        filePath,
        change: !stored ? 'create' : fields.length > 0 ? 'update' : 'unchanged',
        fields,
        writeOnly: [],
      },
      writes: [
        {
          phase: 'userGroups',
          step: {
            path: userGroupPath(group.id),
            body: group,
            bodyFor: (ids) => ({
              ...group,
              members: group.members.map((m) =>
                isPrincipalId(m) ? m : (ids.principals.get(m.toLowerCase()) ?? m),
              ),
            }),
            // The API's PUT takes no If-Match: the group's version is read again before the write.
            guard: { field: 'version', expected: stored?.version },
          },
        },
      ],
    };
  });

  // The service does not check that a restricted permission's groups exist; a typo would lock everyone out.
  const groupIds = new Set([...state.userGroups.keys(), ...config.userGroups.map((g) => g.id)]);
  config.actions.forEach((action, index) => {
    (action.permission?.groups ?? []).forEach((groupId, i) => {
      if (!groupIds.has(groupId)) {
        problems.push({
          path: ['actions', index, 'permission', 'groups', i],
          message: `no user group '${groupId}' in the file or in the project`,
        });
      }
    });
  });
  return { planned, problems };
}

/** A group as compared and exported: members shown by e-mail address, sorted. */
export function comparableUserGroup(
  group: StoredGroup | UserGroupInFile,
  shown: (member: string) => string,
): Record<string, unknown> {
  const members = Array.isArray(group.members) ? (group.members as string[]) : [];
  return {
    id: group.id,
    name: group.name,
    ...(group.role === undefined ? {} : { role: group.role }),
    members: members.map(shown).sort(),
  };
}
