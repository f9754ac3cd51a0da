/**
 * Where users log in (CLI and console SSO): the IdP of this deployment.
 * On AWS it comes from the environment; the embedded runtime provides its
 * built-in development IdP unless DOGU_OIDC_ISSUER is set.
 */
export interface SsoConfig {
  issuer: string;
  /** Public client (PKCE, loopback redirect, device flow, refresh tokens). */
  cliClientId: string;
  consoleClientId: string;
  /** Absent: the console client is public and uses PKCE only. */
  consoleClientSecret?: string;
  /** Whether the IdP offers the device authorization grant to the CLI client. */
  deviceAuthorization: boolean;
  /**
   * Set for the provider an administrator configured (decision 0030): who may come in without an
   * account yet (by e-mail domain), and the projects they join then.
   */
  admission?: {
    allowedDomains: string[];
    defaultMemberships: { projectId: string; role: import('../../domain/roles.ts').Role }[];
    /** When the memberships were saved: a project created later (a deleted id made again) is not joined. */
    savedAt?: string;
  };
}

let provided: SsoConfig | undefined;
/** A configuration still being provided (the embedded runtime's development IdP starting). */
let pending: Promise<unknown> | undefined;

export function provideSsoConfig(config: SsoConfig | undefined): void {
  provided = config;
}

/** Sign-ins wait for `starting` (whatever its outcome) before reading the provided configuration. */
export function waitForSsoConfig(starting: Promise<unknown>): void {
  const settled = starting.then(
    () => {},
    () => {},
  );
  pending = settled;
  void settled.then(() => {
    if (pending === settled) pending = undefined;
  });
}

/** Resolves once no configuration is being provided. */
export async function providedSsoConfigSettled(): Promise<void> {
  while (pending) await pending;
}

export function ssoConfigFromEnv(env: NodeJS.ProcessEnv): SsoConfig | undefined {
  const issuer = env.DOGU_OIDC_ISSUER;
  if (!issuer) return undefined;
  return {
    issuer,
    cliClientId: env.DOGU_OIDC_CLI_CLIENT_ID ?? 'dogu-cli',
    consoleClientId: env.DOGU_OIDC_CONSOLE_CLIENT_ID ?? 'dogu-console',
    ...(env.DOGU_OIDC_CONSOLE_CLIENT_SECRET
      ? { consoleClientSecret: env.DOGU_OIDC_CONSOLE_CLIENT_SECRET }
      : {}),
    deviceAuthorization: env.DOGU_OIDC_DEVICE_FLOW !== 'false',
  };
}

/** The configured IdP, or undefined when this deployment has none. */
export function ssoConfig(env: NodeJS.ProcessEnv = process.env): SsoConfig | undefined {
  return ssoConfigFromEnv(env) ?? provided;
}

/** Plain HTTP is allowed only for an IdP on this machine (the development IdP). */
export function isLoopbackHttp(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
}
