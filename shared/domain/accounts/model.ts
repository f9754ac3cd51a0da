/**
 * Accounts of people (docs/accounts.md): who may sign in with a password, who
 * administers accounts, who is disabled. A user (model.ts `User`) exists once
 * per e-mail address whatever the way in (password, SSO, the loopback admin);
 * the account record adds what password sign-in and revocation need.
 */

export interface Invitation {
  /** SHA-256 of the link's random token (base64url); the token itself is never stored. */
  tokenHash: string;
  createdAt: string;
  expiresAt: string;
  createdBy: { id: string; email: string };
}

export interface Account {
  userId: string;
  /** Lower case: sign-in compares addresses case-insensitively. */
  email: string;
  name: string;
  /** May invite, create, disable and list accounts and configure single sign-on. */
  administrator: boolean;
  /** `scrypt$…` (password-hasher.ts); absent until the user sets one. */
  passwordHash?: string;
  /** Present while an invitation is open; a new invitation replaces it. */
  invitation?: Invitation;
  disabled?: boolean;
  /**
   * Every user token carries the generation it was issued under (`ugen`); increasing it ends every
   * session and token issued so far (disable, "sign out everywhere", password change).
   */
  tokenGeneration: number;
  createdAt: string;
  updatedAt: string;
  /** Optimistic concurrency: saves are conditional on the stored version. */
  version: number;
  /** The password is the embedded demo's published one (removed when the team's accounts are on). */
  demoPassword?: boolean;
  /** How the user was last admitted by single sign-on (just-in-time membership), if so. */
  ssoProvisioned?: boolean;
}

/** An invitation link's token, looked up by its hash; kept after use so a reuse is told apart from a typo. */
export interface InvitationRecord {
  tokenHash: string;
  userId: string;
  expiresAt: string;
  usedAt?: string;
}

/** The external OpenID Connect provider an administrator configured (docs/accounts.md). */
export interface SsoProviderSettings {
  issuer: string;
  clientId: string;
  /** A public client for the CLI (PKCE, loopback redirect), when the provider has one. */
  cliClientId?: string;
  /** Encrypted at rest (SecretValues); never answered. */
  encryptedClientSecret?: string;
  /** Lower-case domains whose verified addresses may sign in; empty: only existing users. */
  allowedDomains: string[];
  /** Just-in-time membership: users admitted by domain join these projects with these roles. */
  defaultMemberships: { projectId: string; role: import('../roles.ts').Role }[];
  updatedAt: string;
  updatedBy: { id: string; email: string };
}

export interface AccountStore {
  getAccount(userId: string): Promise<Account | undefined>;
  listAccounts(): Promise<Account[]>;
  /** Saves only if the stored version is `expectedVersion` (0: must not exist yet); false on conflict. */
  saveAccount(account: Account, expectedVersion: number): Promise<boolean>;
  getInvitation(tokenHash: string): Promise<InvitationRecord | undefined>;
  putInvitation(record: InvitationRecord): Promise<void>;
  getSsoProvider(): Promise<SsoProviderSettings | undefined>;
  putSsoProvider(settings: SsoProviderSettings): Promise<void>;
  deleteSsoProvider(): Promise<boolean>;
}

/** Port: one-way password hashing (shared/adapters/auth/password-hasher.ts). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password or an unreadable hash; never throws for a bad password. */
  verify(password: string, stored: string): Promise<boolean>;
  needsRehash(stored: string): boolean;
}
