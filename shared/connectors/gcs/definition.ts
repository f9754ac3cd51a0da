/**
 * The GCS kind's connection (spec 2.3, object storage B): a service-account JSON key, or workload
 * identity federation (Dogu's ID token → Google STS → service-account impersonation).
 */
import * as z from 'zod';
import { googleAuthenticationModes, googleFederationFields } from '../google-auth/federation.ts';
import { parseServiceAccountKey } from '../google-auth/service-account-key.ts';

export const gcsAuthenticationModes = googleAuthenticationModes;

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
  ...googleFederationFields,
  /** Private endpoints (and tests); absent: Google's public endpoints. */
  storageEndpoint: httpUrl('the Cloud Storage endpoint').optional(),
});
export type GcsConnection = z.infer<typeof gcsConnectionSchema>;
