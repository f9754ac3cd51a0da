/** Account API paths and records (docs/accounts.md). */
import { pathOf } from '../../api/client.ts';

export type AccountStatus = 'invited' | 'active' | 'disabled' | 'single_sign_on';

export interface Account {
  userId: string;
  email: string;
  name: string;
  administrator: boolean;
  status: AccountStatus;
  hasPassword: boolean;
  invitationExpiresAt?: string;
}

export interface IssuedInvitation {
  url: string;
  expiresAt: string;
  sent: boolean;
}

export const accountPaths = {
  users: '/api/v1/users',
  user: (userId: string) => pathOf`/api/v1/users/${userId}`,
  invitationOf: (userId: string) => pathOf`/api/v1/users/${userId}/invitation`,
  revokeSessions: (userId: string) => pathOf`/api/v1/users/${userId}/revoke-sessions`,
  password: '/api/v1/me/password',
  invitation: (token: string) => pathOf`/auth/invitations/${token}`,
  acceptInvitation: (token: string) => pathOf`/auth/invitations/${token}/accept`,
};
