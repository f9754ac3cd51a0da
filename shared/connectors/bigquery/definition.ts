/**
 * Google BigQuery data sources (spec 2.3): a service-account key or workload identity federation
 * (as for Cloud Storage, shared/connectors/google-auth/), the project that pays, limits.
 */
import * as z from 'zod';
import { googleAuthenticationModes, googleFederationFields } from '../google-auth/federation.ts';
import { parseServiceAccountKey } from '../google-auth/service-account-key.ts';

export const bigQueryScope = 'https://www.googleapis.com/auth/bigquery';

export const bigQueryConnectionSchema = z.object({
  /** The project whose jobs run (and are billed); tables of other projects are named in the SQL. */
  projectId: z
    .string()
    .regex(
      /^([a-z0-9.-]+:)?[a-z][a-z0-9-]{4,28}[a-z0-9]$/,
      'a Google Cloud project ID such as my-project-123',
    ),
  authentication: z
    .enum(googleAuthenticationModes, { error: 'must be service-account-key or workload-identity' })
    .optional(),
  /** Write-only: the whole JSON key file of a service account; stored encrypted, never returned. */
  serviceAccountKey: z
    .string()
    .max(20_000)
    .refine((text) => text === '' || parseServiceAccountKey(text) !== undefined, {
      message: 'must be the JSON key file of a service account (with client_email and private_key)',
    })
    .optional(),
  ...googleFederationFields,
  /** Where jobs run, e.g. US, EU, asia-northeast1; default: where the tables are. */
  location: z
    .string()
    .regex(/^[A-Za-z0-9-]{2,64}$/, 'a BigQuery location such as US or asia-northeast1')
    .optional(),
  /** Unqualified table names in the SQL are read from this dataset. */
  defaultDataset: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,1024}$/, 'a dataset name (letters, digits, underscores)')
    .optional(),
  /** A query that would bill more fails without charge (BigQuery's maximumBytesBilled). */
  maximumBytesBilled: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  /** Each statement is first estimated with a dry run; the estimate is shown in its messages. */
  dryRunFirst: z.boolean().optional(),
  /** Private Service Connect or another BigQuery-compatible endpoint; default: Google's. */
  apiEndpoint: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
  /** The data source's own time limit; ends a query before the execution's maximum. */
  statementTimeoutMs: z.number().int().min(1000).max(1_800_000).optional(),
});
export type BigQueryConnection = z.infer<typeof bigQueryConnectionSchema>;

export const defaultApiEndpoint = 'https://bigquery.googleapis.com';
