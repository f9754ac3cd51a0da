/**
 * The single sign-on provider an account administrator configured (decision 0030): stored in the
 * table with its client secret encrypted, preferred over the built-in development IdP, but not
 * over DOGU_OIDC_ISSUER (the operator's setting wins). Read at most every 10 s per container.
 */
import * as oidc from 'openid-client';
import * as z from 'zod';
import { requireAccountAdministrator } from '../../domain/accounts/account-records.ts';
import type { SsoProviderSettings } from '../../domain/accounts/model.ts';
import { DoguError } from '../../domain/errors.ts';
import type { Principal } from '../../domain/model.ts';
import { roles } from '../../domain/roles.ts';
import type { CoreServices } from '../../runtime/core-services.ts';
import type { Services } from '../../runtime/services.ts';

/** The provider's client secret is kept encrypted: its functions compose the secret values. */
type SsoServices = CoreServices & Pick<Services, 'secrets'>;

import {
  isLoopbackHttp,
  providedSsoConfigSettled,
  type SsoConfig,
  ssoConfig,
  ssoConfigFromEnv,
} from './sso-config.ts';

const secretContext = { deployment: 'sso-provider', field: 'clientSecret' };
const rereadMs = 10_000;
/** Per runtime (tests run several in one process), so one runtime's provider never leaks into another. */
// Keyed by the accounts service, which every handler's view of the services shares.
const cachedFor = new WeakMap<object, { at: number; config: SsoConfig | undefined }>();

export const ssoProviderSchema = z
  .object({
    issuer: z
      .string()
      .url('must be a URL')
      .refine((value) => value.startsWith('https://') || isLoopbackHttp(value), 'must be an https URL'),
    clientId: z.string().min(1).max(500),
    /** A public client for `dogu login --sso` (PKCE, loopback redirect); absent: the CLI uses clientId. */
    cliClientId: z.string().min(1).max(500).optional(),
    /** Absent on a change: the stored one is kept. */
    clientSecret: z.string().min(1).max(2000).optional(),
    allowedDomains: z
      .array(
        z
          .string()
          .trim()
          .toLowerCase()
          .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, 'must be a domain such as example.com'),
      )
      .max(50)
      .default([]),
    defaultMemberships: z
      .array(z.object({ projectId: z.string().min(1).max(100), role: z.enum(roles) }).strict())
      .max(20)
      .default([]),
  })
  .strict();

export const ssoStep = (
  step: 'discovery' | 'token' | 'id token validation' | 'domain not allowed',
  detail: string,
) => `Single sign-on failed at the ${step} step: ${detail}`;

/** The IdP users sign in at: DOGU_OIDC_ISSUER, else the administrator's provider, else the development IdP. */
export async function activeSsoConfig(services: SsoServices): Promise<SsoConfig | undefined> {
  const fromEnv = ssoConfigFromEnv(process.env);
  if (fromEnv) return fromEnv;
  const now = services.clock.now().getTime();
  let cached = cachedFor.get(services.accounts);
  if (!cached || now - cached.at >= rereadMs) {
    const settings = await services.accounts.store.getSsoProvider();
    cached = { at: now, config: settings ? await configOf(services, settings) : undefined };
    cachedFor.set(services.accounts, cached);
  }
  if (cached.config) return cached.config;
  await providedSsoConfigSettled();
  return ssoConfig();
}

async function configOf(services: SsoServices, settings: SsoProviderSettings): Promise<SsoConfig> {
  const secret = settings.encryptedClientSecret
    ? await services.secrets.decrypt(settings.encryptedClientSecret, secretContext)
    : undefined;
  return {
    issuer: settings.issuer,
    cliClientId: settings.cliClientId ?? settings.clientId,
    consoleClientId: settings.clientId,
    ...(secret ? { consoleClientSecret: secret } : {}),
    deviceAuthorization: false,
    admission: {
      allowedDomains: settings.allowedDomains,
      defaultMemberships: settings.defaultMemberships,
      savedAt: settings.updatedAt,
    },
  };
}

const viewOf = (settings: SsoProviderSettings) => {
  const { encryptedClientSecret, ...rest } = settings;
  return { ...rest, hasClientSecret: encryptedClientSecret !== undefined };
};

export async function getSsoProvider(services: SsoServices, principal: Principal) {
  await requireAccountAdministrator(services, principal);
  const settings = await services.accounts.store.getSsoProvider();
  if (!settings) throw new DoguError('not_found', 'No single sign-on provider is configured.');
  return viewOf(settings);
}

/** Saves after checking discovery, so a wrong issuer is caught now, not at the first sign-in. */
export async function putSsoProvider(
  services: SsoServices,
  principal: Principal,
  input: z.infer<typeof ssoProviderSchema>,
) {
  await requireAccountAdministrator(services, principal);
  try {
    await oidc.discovery(
      new URL(input.issuer),
      input.clientId,
      undefined,
      undefined,
      isLoopbackHttp(input.issuer) ? { execute: [oidc.allowInsecureRequests], timeout: 5 } : { timeout: 5 },
    );
  } catch (error) {
    const detail = ssoStep('discovery', `${(error as Error).message}.`);
    throw new DoguError('invalid_definition', `#/issuer: ${detail}`, {
      errors: [{ pointer: '#/issuer', detail }],
    });
  }
  await refuseUnknownProjects(services, input.defaultMemberships);
  const current = await services.accounts.store.getSsoProvider();
  const encryptedClientSecret = input.clientSecret
    ? await services.secrets.encrypt(input.clientSecret, secretContext)
    : current?.clientId === input.clientId
      ? current.encryptedClientSecret
      : undefined;
  const settings: SsoProviderSettings = {
    issuer: input.issuer,
    clientId: input.clientId,
    ...(input.cliClientId ? { cliClientId: input.cliClientId } : {}),
    ...(encryptedClientSecret ? { encryptedClientSecret } : {}),
    allowedDomains: input.allowedDomains,
    defaultMemberships: input.defaultMemberships,
    updatedAt: services.clock.now().toISOString(),
    updatedBy: { id: principal.id, email: principal.email },
  };
  await services.accounts.store.putSsoProvider(settings);
  cachedFor.delete(services.accounts);
  return viewOf(settings);
}

/**
 * A membership may name only a project that exists now: one naming a future id would bind whoever
 * creates that project later to everyone who signs in (issue 24, item 11).
 */
async function refuseUnknownProjects(
  services: SsoServices,
  memberships: z.infer<typeof ssoProviderSchema>['defaultMemberships'],
) {
  const found = await Promise.all(memberships.map((m) => services.store.getProject(m.projectId)));
  const errors = memberships.flatMap((m, i) =>
    found[i]
      ? []
      : [{ pointer: `#/defaultMemberships/${i}/projectId`, detail: `no project '${m.projectId}' exists` }],
  );
  if (errors.length === 0) return;
  throw new DoguError(
    'invalid_definition',
    errors.length === 1
      ? `${errors[0]!.pointer}: ${errors[0]!.detail}`
      : `${errors.length} projects do not exist.`,
    { errors },
  );
}

export async function deleteSsoProvider(services: SsoServices, principal: Principal) {
  await requireAccountAdministrator(services, principal);
  if (!(await services.accounts.store.deleteSsoProvider())) {
    throw new DoguError('not_found', 'No single sign-on provider is configured.');
  }
  cachedFor.delete(services.accounts);
}
