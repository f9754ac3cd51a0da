/**
 * Request bodies of service accounts and trust policies (spec 2.9). The pattern syntax of bound
 * claims is checked with the matcher's own parser, so what is accepted here is what matches later.
 */
import * as z from 'zod';
import { boundClaimProblems, matchesAnything } from '../identity/bound-claims.ts';
import { resourceIdSchema } from './data-source.ts';
import { roleSchema } from './governance.ts';

/** The local part of the account's e-mail address `<name>@<projectId>.sa.dogu`, so no `_` or `.`. */
export const serviceAccountNameSchema = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]{0,62}$/,
    'must be 1-63 lower-case letters, digits or -, starting with a letter or digit',
  );

const descriptionSchema = z.string().max(1000);

export const serviceAccountCreateSchema = z.object({
  name: serviceAccountNameSchema,
  description: descriptionSchema.optional(),
  /** When given, the account becomes a direct member of its project with this role. */
  role: roleSchema.optional(),
});
export type ServiceAccountCreateInput = z.infer<typeof serviceAccountCreateSchema>;

/** PUT replaces what may change; `name` may be sent but must stay the same. */
export const serviceAccountUpdateSchema = z.object({
  name: serviceAccountNameSchema.optional(),
  description: descriptionSchema.optional(),
  disabled: z.boolean().optional(),
});
export type ServiceAccountUpdateInput = z.infer<typeof serviceAccountUpdateSchema>;

export const maxBoundClaims = 20;

/** An https URL, compared with the token's `iss` exactly as written (no normalising). */
const issuerSchema = z
  .string()
  .max(2048)
  .refine((text) => {
    if (!URL.canParse(text)) return false;
    const url = new URL(text);
    return url.protocol === 'https:' && url.username === '' && url.password === '' && !/[?#]/.test(text);
  }, 'must be an https URL without credentials, query or fragment (the IdP publishes its keys over HTTPS)');

const boundClaimSchema = z.object({ key: z.string(), pattern: z.string() }).superRefine((rule, context) => {
  for (const problem of boundClaimProblems(rule)) {
    context.addIssue({ code: 'custom', path: [problem.field], message: problem.detail });
  }
});

export const trustPolicyInputSchema = z.object({
  /** Optional in the body; when present it must equal the path's policy id. */
  id: resourceIdSchema.optional(),
  issuer: issuerSchema,
  audience: z.string().min(1).max(1000),
  boundClaims: z
    .array(boundClaimSchema)
    .min(
      1,
      'needs at least one bound claim: issuer and audience alone would admit every workload of the issuer',
    )
    .max(maxBoundClaims)
    .refine(
      (rules) => rules.length === 0 || rules.some((rule) => !matchesAnything(rule.pattern)),
      'needs at least one bound claim whose pattern is more than `*`',
    ),
});
export type TrustPolicyInput = z.infer<typeof trustPolicyInputSchema>;
