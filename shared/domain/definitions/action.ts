/** What every action shares (spec 2.1): parameters, permission, review; each kind's fields live in its connector. */
import * as z from 'zod';
import { roles } from '../roles.ts';
import { resourceIdSchema } from './data-source.ts';
import { parameterSchema } from './parameter.ts';

/**
 * Who may run the action (spec 2.1). `everyone`: every project member with the execute right.
 * `restricted`: only the listed users, roles and user groups. `javascript_action`: only when
 * called from that JavaScript action (the call path arrives with JavaScript actions).
 */
export const permissionSchema = z.object({
  mode: z.enum(['everyone', 'restricted', 'javascript_action']),
  users: z.array(z.string().min(1).max(100)).max(500).optional(),
  roles: z.array(z.enum(roles)).optional(),
  groups: z.array(resourceIdSchema).max(100).optional(),
  javascriptActionId: resourceIdSchema.optional(),
});
export type ActionPermission = z.infer<typeof permissionSchema>;

/** The action kind that may hold the `javascript_action` permission (spec 2.1). */
export const javascriptActionKind = 'javascript';

/** A run needs another user's approval; a request expires unanswered after `expiresInMinutes`. */
export const reviewSchema = z.object({
  required: z.boolean(),
  expiresInMinutes: z
    .number()
    .int()
    .min(5)
    .max(30 * 24 * 60)
    .optional(),
});

/**
 * A script that reshapes the result before it is shown (spec 2.2): it receives `result` (one
 * statement: its value or rows; several: `{ title, value }` each) and returns the value to show. It
 * runs in the script sandbox with its own time limit (docs/javascript.md).
 */
export const transformerSchema = z.object({
  script: z.string().min(1).max(100_000),
  timeLimitMs: z.number().int().min(100).max(60_000).optional(),
});

export const actionCommonShape = {
  id: resourceIdSchema,
  name: z.string().min(1).max(200),
  description: z.string().max(2000).optional(),
  dataSourceId: resourceIdSchema,
  parameters: z.array(parameterSchema).max(100).default([]),
  permission: permissionSchema.optional(),
  review: reviewSchema.optional(),
  transformer: transformerSchema.optional(),
  /**
   * `reads` or `changes` data (docs/governance.md). Defaulted at save from the statements or the HTTP
   * method when left out (shared/domain/action-effect.ts); a changing action run from the console or a
   * view asks for confirmation first.
   */
  effect: z.enum(['reads', 'changes']).optional(),
};

type ActionCommon = z.infer<z.ZodObject<typeof actionCommonShape>>;

/**
 * An action as the domain sees it: the common fields and its kind; the kind's own fields
 * (statements, method, request …) are defined and read by its connector (shared/connectors/).
 */
export type ActionInput = ActionCommon & { kind: string } & { [field: string]: unknown };
