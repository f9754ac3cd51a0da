/** Google BigQuery data sources (spec 2.3): a service-account key, the project that pays, limits. */
import { z } from 'zod';

/** The parts of a service-account key Dogu uses; the rest of Google's key file is kept as given. */
export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri: string;
}

export const defaultTokenUri = 'https://oauth2.googleapis.com/token';

/** Parses the key text; undefined when it is not a service-account key (never says why with its content). */
export function parseServiceAccountKey(text: string): ServiceAccountKey | undefined {
  try {
    const key = JSON.parse(text) as Record<string, unknown>;
    if (typeof key.client_email !== 'string' || typeof key.private_key !== 'string') return undefined;
    if (!key.private_key.includes('PRIVATE KEY')) return undefined;
    const tokenUri = typeof key.token_uri === 'string' ? key.token_uri : defaultTokenUri;
    if (!/^https?:\/\//.test(tokenUri)) return undefined;
    return {
      client_email: key.client_email,
      private_key: key.private_key,
      token_uri: tokenUri,
      ...(typeof key.private_key_id === 'string' ? { private_key_id: key.private_key_id } : {}),
    };
  } catch {
    return undefined;
  }
}

export const bigQueryConnectionSchema = z.object({
  /** The project whose jobs run (and are billed); tables of other projects are named in the SQL. */
  projectId: z
    .string()
    .regex(
      /^([a-z0-9.-]+:)?[a-z][a-z0-9-]{4,28}[a-z0-9]$/,
      'a Google Cloud project ID such as my-project-123',
    ),
  /** Write-only: the whole JSON key file of a service account; stored encrypted, never returned. */
  serviceAccountKey: z
    .string()
    .max(20_000)
    .refine((text) => parseServiceAccountKey(text) !== undefined, {
      message: 'must be the JSON key file of a service account (with client_email and private_key)',
    })
    .optional(),
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
