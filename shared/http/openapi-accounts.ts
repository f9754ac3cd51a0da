/** OpenAPI entries of accounts, sign-in, single sign-on and "run now" (docs/accounts.md, docs/api.md). */
import * as z from 'zod';
import { ssoProviderSchema } from '../adapters/oidc/sso-provider.ts';
import { acceptInvitationSchema } from '../domain/accounts/invitations.ts';
import { createAccountSchema, updateAccountSchema } from '../domain/accounts/manage-accounts.ts';
import { changePasswordSchema, signInSchema } from '../domain/accounts/sign-in.ts';
import { cronRun } from './openapi-more-answers.ts';
import type { OperationSpec } from './openapi-spec.ts';
import type { RouteName } from './routes.ts';

const account = z
  .object({
    userId: z.string(),
    email: z.string(),
    name: z.string(),
    administrator: z.boolean(),
    status: z.enum(['invited', 'active', 'disabled', 'single_sign_on']),
    hasPassword: z.boolean(),
    invitationExpiresAt: z.string().optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Account' });
const invitation = z.object({
  url: z.string(),
  path: z.string(),
  expiresAt: z.string(),
  sent: z.boolean(),
});
const withInvitation = account.extend({ invitation: invitation.optional() });
const loginToken = z.object({
  token: z.string(),
  tokenType: z.literal('Bearer'),
  email: z.string(),
  expiresAt: z.number().int(),
});
const consoleSession = z.object({
  user: z.object({ kind: z.literal('user'), id: z.string(), email: z.string(), name: z.string() }),
  csrfToken: z.string(),
  expiresAt: z.number().int(),
});
const ssoProviderAnswer = z
  .object({ issuer: z.string(), clientId: z.string(), hasClientSecret: z.boolean() })
  .catchall(z.unknown())
  .meta({
    id: 'SsoProvider',
    description: 'The provider settings; the client secret only as hasClientSecret',
  });
const notAdministrator = 'Not an account administrator';
const signInRefusals = {
  '401': 'Unknown e-mail address or wrong password (the same answer for both)',
  '403': 'The account is disabled, or the demo password is used from another machine',
  '422': 'The body is not {email, password}',
  '429': 'Too many failed sign-ins for the address or from the client (Retry-After)',
} as const;
const invitationRefusals = {
  '404': 'Unknown invitation link',
  '409': 'The invitation was used, replaced or has expired (`reason`), or the account is disabled',
} as const;

export const accountOperations: Partial<Record<RouteName, OperationSpec>> = {
  passwordSignIn: {
    summary: 'Console: sign in with e-mail and password; sets the session cookie',
    body: signInSchema,
    ok: { status: '200', schema: consoleSession },
    errors: signInRefusals,
  },
  passwordLogin: {
    summary: 'CLI and scripts: a login token for e-mail and password',
    body: signInSchema,
    ok: { status: '200', schema: loginToken },
    errors: signInRefusals,
  },
  getInvitation: {
    summary: 'Who an invitation link is for, and until when',
    ok: { status: '200', schema: z.object({ email: z.string(), name: z.string(), expiresAt: z.string() }) },
    errors: invitationRefusals,
  },
  acceptInvitation: {
    summary: 'Set the password of an invited account; signs in (session cookie)',
    body: acceptInvitationSchema,
    ok: { status: '200', schema: consoleSession },
    errors: {
      ...invitationRefusals,
      '422': 'The password is too short, too long, common or contains the address',
    },
  },
  listUsers: {
    summary: "People's accounts with their status (account administrators)",
    ok: { status: '200', schema: z.object({ data: z.array(account) }) },
    errors: { '403': notAdministrator },
  },
  createUser: {
    summary: 'Create an account with a password, or invite by e-mail (answers the link once)',
    body: createAccountSchema,
    ok: { status: '201', schema: withInvitation },
    errors: {
      '403': notAdministrator,
      '409': 'An account with this address exists',
      '422': 'Bad address or weak password (pointer names the field)',
    },
  },
  getUser: {
    summary: 'One account (administrators, or the user themself)',
    ok: { status: '200', schema: account },
    errors: { '403': notAdministrator, '404': 'No such account' },
  },
  updateUser: {
    summary: 'Rename, grant or take the administrator flag, disable (ends every session) or enable',
    body: updateAccountSchema,
    ok: { status: '200', schema: account },
    errors: {
      '403': 'Not an account administrator, or disabling yourself',
      '404': 'No such account',
      '409': 'The last administrator must stay, or a concurrent change',
    },
  },
  inviteUser: {
    summary: 'A new invitation link for the account (the previous one stops working)',
    ok: { status: '200', schema: withInvitation },
    errors: { '403': notAdministrator, '404': 'No such account', '409': 'The account is disabled' },
  },
  revokeUserSessions: {
    summary: 'End every session and token of the user (administrators, or the user themself)',
    ok: { status: '200', schema: account },
    errors: { '403': notAdministrator, '404': 'No such account' },
  },
  changePassword: {
    summary: 'Change your password; other sessions end, this one gets a new token or cookie',
    body: changePasswordSchema,
    ok: {
      status: '200',
      schema: z
        .union([loginToken, consoleSession])
        .meta({ description: 'A new token (bearer callers) or the new session (console, cookie)' }),
    },
    errors: {
      '404': 'No account (a service account)',
      '409': 'The account signs in by single sign-on only',
      '422': 'Wrong current password, or a weak new one',
      '429': 'Too many wrong current passwords',
    },
  },
  listAccountAuditLog: {
    summary: 'Account and single sign-on changes, newest first (?limit=&cursor=)',
    ok: {
      status: '200',
      schema: z.object({
        data: z.array(z.record(z.string(), z.unknown())),
        has_more: z.boolean(),
        next_cursor: z.string().optional(),
      }),
    },
    errors: { '403': notAdministrator },
  },
  getSsoProvider: {
    summary: 'The OpenID Connect provider for single sign-on (the secret is never answered)',
    ok: { status: '200', schema: ssoProviderAnswer },
    errors: { '403': notAdministrator, '404': 'None configured' },
  },
  putSsoProvider: {
    summary:
      'Configure the OpenID Connect provider: issuer, client, allowed e-mail domains, default projects',
    body: ssoProviderSchema,
    ok: { status: '200', schema: ssoProviderAnswer },
    errors: { '403': notAdministrator, '422': 'Bad field, or discovery at the issuer failed (named)' },
  },
  deleteSsoProvider: {
    summary: 'Remove the single sign-on provider',
    ok: { status: '204' },
    errors: { '403': notAdministrator, '404': 'None configured' },
  },
  runCronJobNow: {
    summary: 'Run the cron job now: a manual run in its history (answers the finished run)',
    ok: { status: '201', schema: cronRun },
    errors: {
      '403': 'Lacks manage_cron_jobs',
      '404': 'No such job',
      '409': 'Another manual run at the same instant',
    },
  },
};
