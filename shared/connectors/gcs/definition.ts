/**
 * The GCS kind's connection (spec 2.3, object storage B): a service-account JSON key, or workload
 * identity federation (Dogu's ID token → Google STS → service-account impersonation).
 */
import { z } from 'zod';

export const gcsAuthenticationModes = ['service-account-key', 'workload-identity'] as const;

export const providerPattern =
  /^projects\/\d{1,20}\/locations\/global\/workloadIdentityPools\/[a-z0-9-]{4,32}\/providers\/[a-z0-9-]{4,32}$/;
export const serviceAccountPattern =
  /^[a-z][a-z0-9-]{4,28}[a-z0-9]@[a-z][a-z0-9-]{4,28}[a-z0-9]\.iam\.gserviceaccount\.com$/;

export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri?: string;
}

export function parseServiceAccountKey(text: string): ServiceAccountKey | undefined {
  try {
    const key = JSON.parse(text) as Record<string, unknown>;
    if (
      key.type === 'service_account' &&
      typeof key.client_email === 'string' &&
      typeof key.private_key === 'string' &&
      key.private_key.includes('PRIVATE KEY')
    )
      return key as unknown as ServiceAccountKey;
  } catch {}
  return undefined;
}

const httpUrl = (what: string) =>
  z.url({ protocol: /^https?$/, error: `must be an http or https URL (${what})` });

export const gcsConnectionSchema = z.object({
  authentication: z
    .enum(gcsAuthenticationModes, { error: 'must be service-account-key or workload-identity' })
    .default('service-account-key'),
  /** Secret field: the whole JSON key file. */
  serviceAccountKey: z
    .string()
    .max(20_000)
    .refine((text) => text === '' || parseServiceAccountKey(text) !== undefined, {
      error: 'must be a service account JSON key (type service_account, client_email, private_key)',
    })
    .optional(),
  /** Workload identity: the pool provider that trusts Dogu's issuer. */
  provider: z
    .string()
    .regex(providerPattern, {
      error:
        'must be projects/<project number>/locations/global/workloadIdentityPools/<pool>/providers/<provider>',
    })
    .optional(),
  /** Workload identity: the service account impersonated. */
  serviceAccount: z
    .string()
    .regex(serviceAccountPattern, { error: 'must be <name>@<project>.iam.gserviceaccount.com' })
    .optional(),
  /** Private endpoints (and tests); absent: Google's public endpoints. */
  storageEndpoint: httpUrl('the Cloud Storage endpoint').optional(),
  stsEndpoint: httpUrl('the Security Token Service endpoint').optional(),
  iamCredentialsEndpoint: httpUrl('the IAM Credentials endpoint').optional(),
});
export type GcsConnection = z.infer<typeof gcsConnectionSchema>;

export const googleEndpoints = {
  storage: 'https://storage.googleapis.com',
  sts: 'https://sts.googleapis.com',
  iamCredentials: 'https://iamcredentials.googleapis.com',
  oauthToken: 'https://oauth2.googleapis.com/token',
};
