/**
 * The connection fields of Google authentication shared by Cloud Storage and BigQuery: a
 * service-account JSON key, or workload identity federation (Dogu's ID token → Google STS →
 * service-account impersonation). Schema and form only; the exchange is google-credentials.ts.
 */
import * as z from 'zod';
import type { FormField } from '../connector.ts';
import { field } from '../form-field.ts';

export const googleAuthenticationModes = ['service-account-key', 'workload-identity'] as const;
export type GoogleAuthenticationMode = (typeof googleAuthenticationModes)[number];

export const providerPattern =
  /^projects\/\d{1,20}\/locations\/global\/workloadIdentityPools\/[a-z0-9-]{4,32}\/providers\/[a-z0-9-]{4,32}$/;
export const serviceAccountPattern =
  /^[a-z][a-z0-9-]{4,28}[a-z0-9]@[a-z][a-z0-9-]{4,28}[a-z0-9]\.iam\.gserviceaccount\.com$/;

export const googleAuthEndpoints = {
  sts: 'https://sts.googleapis.com',
  iamCredentials: 'https://iamcredentials.googleapis.com',
  oauthToken: 'https://oauth2.googleapis.com/token',
};

const httpUrl = (what: string) =>
  z.url({ protocol: /^https?$/, error: `must be an http or https URL (${what})` });

/** The workload identity fields a Google kind's connection schema spreads in. */
export const googleFederationFields = {
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
  stsEndpoint: httpUrl('the Security Token Service endpoint').optional(),
  iamCredentialsEndpoint: httpUrl('the IAM Credentials endpoint').optional(),
};

/** What GoogleCredentials reads of a connection. */
export interface GoogleAuthConnection {
  authentication?: GoogleAuthenticationMode | undefined;
  serviceAccountKey?: string | undefined;
  provider?: string | undefined;
  serviceAccount?: string | undefined;
  stsEndpoint?: string | undefined;
  iamCredentialsEndpoint?: string | undefined;
}

export const googleAuthenticationField = field('authentication', 'select', 'Authentication', '認証方式', {
  options: googleAuthenticationModes,
  default: 'service-account-key',
  hint: {
    en: 'service-account-key: a JSON key; workload-identity: no stored key, Dogu’s ID token is trusted by a pool provider.',
    ja: 'service-account-key: JSON キー、workload-identity: キーを保存せず、プールのプロバイダーが Dogu の ID トークンを信頼します。',
  },
});

/** Who is impersonated under workload identity. */
export const googleIdentityFormFields: FormField[] = [
  field('provider', 'text', 'Workload identity provider', 'Workload Identity プロバイダー', {
    hint: {
      en: 'projects/<project number>/locations/global/workloadIdentityPools/<pool>/providers/<provider>',
      ja: 'projects/<プロジェクト番号>/locations/global/workloadIdentityPools/<プール>/providers/<プロバイダー>',
    },
  }),
  field('serviceAccount', 'text', 'Service account', 'サービスアカウント', {
    hint: {
      en: '<name>@<project>.iam.gserviceaccount.com',
      ja: '<名前>@<プロジェクト>.iam.gserviceaccount.com',
    },
  }),
];

/** Private endpoints of the federation (optional). */
export const googleFederationEndpointFormFields: FormField[] = [
  field('stsEndpoint', 'text', 'STS endpoint (optional)', 'STS エンドポイント（任意）'),
  field(
    'iamCredentialsEndpoint',
    'text',
    'IAM Credentials endpoint (optional)',
    'IAM Credentials エンドポイント（任意）',
  ),
];
