/**
 * Who belongs to a project and how actions are grouped: members (users and
 * service accounts with a role), user groups (spec 2.1 "groups of users", a
 * role for all their members) and action groups (spec 2.6, ordered actions on
 * one screen).
 */
import * as z from 'zod';
import { roles } from '../roles.ts';
import { resourceIdSchema } from './data-source.ts';

/** A user (`usr_…`) or service account (`sa_…`) id, as the id generator makes them. */
export const principalIdSchema = z
  .string()
  .regex(/^(usr|sa)_[A-Za-z0-9_-]{1,100}$/, "must be a user id 'usr_…' or a service account id 'sa_…'");

export const kindOfPrincipal = (principalId: string) =>
  principalId.startsWith('sa_') ? ('service_account' as const) : ('user' as const);

export const roleSchema = z.enum(roles);

export const memberRoleInputSchema = z.object({ role: roleSchema });

export const memberByEmailInputSchema = z.object({
  email: z.email().max(320),
  role: roleSchema,
});

/** Lists whose order or identity matters must not name one id twice. */
const distinct = <T extends string>(item: z.ZodType<T>, max: number, what: string) =>
  z
    .array(item)
    .max(max)
    .superRefine((ids, context) => {
      const seen = new Set<string>();
      ids.forEach((id, index) => {
        if (seen.has(id))
          context.addIssue({ code: 'custom', path: [index], message: `names ${what} '${id}' twice` });
        seen.add(id);
      });
    });

export const userGroupInputSchema = z.object({
  id: resourceIdSchema,
  name: z.string().min(1).max(200),
  /** Every member holds at least this role in the project; without it the group grants no role. */
  role: roleSchema.optional(),
  members: distinct(principalIdSchema, 1000, 'member').default([]),
});
export type UserGroupInput = z.infer<typeof userGroupInputSchema>;

export const actionGroupInputSchema = z.object({
  id: resourceIdSchema,
  name: z.string().min(1).max(200),
  /** In display order. */
  actionIds: distinct(resourceIdSchema, 100, 'action'),
});
export type ActionGroupInput = z.infer<typeof actionGroupInputSchema>;

export const actionGroupOrderSchema = z.object({ actionIds: distinct(resourceIdSchema, 100, 'action') });

interface StoredGroup {
  projectId: string;
  /** Increases by one on every save; saves are conditional on it. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export type UserGroup = UserGroupInput & StoredGroup;
export type ActionGroup = ActionGroupInput & StoredGroup;
