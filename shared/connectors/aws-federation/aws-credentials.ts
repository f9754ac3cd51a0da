/**
 * How an AWS data source (S3, Athena) authenticates: its own access key, Dogu's ID token exchanged
 * for a role's temporary credentials (OIDC, spec 5.2), or the role Dogu itself runs with.
 * One rule for every AWS kind, so the modes and their errors read the same everywhere.
 */
import * as z from 'zod';
import { DoguError } from '../../domain/errors.ts';
import type { IdentityTokenSource } from '../../domain/ports.ts';
import type { FormField } from '../connector.ts';
import { field } from '../form-field.ts';
import type { WebIdentityCredentials } from './web-identity.ts';

/** function-role: the AWS credentials Dogu itself runs with (the Lambda role; locally the default chain). */
export const awsAuthenticationModes = ['keys', 'oidc', 'function-role'] as const;
export type AwsAuthenticationMode = (typeof awsAuthenticationModes)[number];

/** arn:<partition>:iam::<12-digit account>:role/<path/name>, as IAM writes it. */
export const roleArnPattern = /^arn:aws(?:-[a-z]+)*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;

/** The OIDC fields every AWS kind's connection schema spreads in. */
export const awsOidcFields = {
  /** OIDC: the `aud` of Dogu's token, equal to the client ID registered at the IAM OIDC provider. */
  audience: z.string().min(1).max(1000).optional(),
  /** OIDC: the role assumed with the token (AssumeRoleWithWebIdentity). */
  roleArn: z
    .string()
    .regex(roleArnPattern, {
      error: 'must be an IAM role ARN such as arn:aws:iam::123456789012:role/dogu-storage',
    })
    .optional(),
  /** OIDC: a regional or VPC STS endpoint; absent: STS of the region. */
  stsEndpoint: z
    .url({ protocol: /^https?$/, error: 'must be an http or https URL (the STS endpoint)' })
    .optional(),
};

export interface AwsAuthenticatedConnection {
  region: string;
  authentication?: AwsAuthenticationMode | undefined;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  audience?: string | undefined;
  roleArn?: string | undefined;
  stsEndpoint?: string | undefined;
}

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** Temporary credentials only. */
  expiration?: Date;
}

/** Who runs: the project environment Dogu's ID token names, and where the token comes from. */
export interface AwsCredentialScope {
  projectId: string;
  environmentId: string;
  identityToken?: IdentityTokenSource;
  signal?: AbortSignal;
}

/** undefined: the function's own role (the SDK's default credential chain). */
export async function awsCredentialsOf(
  connection: AwsAuthenticatedConnection,
  scope: AwsCredentialScope,
  webIdentity: WebIdentityCredentials,
  defaultMode: AwsAuthenticationMode = 'keys',
): Promise<AwsCredentials | undefined> {
  const mode = connection.authentication ?? defaultMode;
  if (mode === 'function-role') return undefined;
  if (mode === 'keys') {
    if (!connection.accessKeyId || !connection.secretAccessKey)
      throw new DoguError(
        'data_source_error',
        'Key authentication needs an access key ID and a secret access key; set both in the data source.',
      );
    return { accessKeyId: connection.accessKeyId, secretAccessKey: connection.secretAccessKey };
  }
  if (!connection.roleArn || !connection.audience)
    throw new DoguError(
      'data_source_error',
      'OIDC authentication needs an audience and an IAM role ARN; set both in the data source.',
    );
  return webIdentity.credentials({
    region: connection.region,
    roleArn: connection.roleArn,
    audience: connection.audience,
    ...(connection.stsEndpoint ? { stsEndpoint: connection.stsEndpoint } : {}),
    projectId: scope.projectId,
    environmentId: scope.environmentId,
    ...(scope.identityToken ? { identityToken: scope.identityToken } : {}),
    ...(scope.signal ? { signal: scope.signal } : {}),
  });
}

/** The console's fields for the three modes, in the order the S3 and Athena forms show them. */
export const awsAuthenticationFormFields = (defaultMode: AwsAuthenticationMode): FormField[] => [
  field('authentication', 'select', 'Authentication', '認証方式', {
    options: awsAuthenticationModes,
    default: defaultMode,
    hint: {
      en: 'keys: an access key; oidc: no stored key, Dogu’s ID token assumes an IAM role; function-role: the role Dogu runs with (where the operator allows it).',
      ja: 'keys: アクセスキー、oidc: キーを保存せず Dogu の ID トークンで IAM ロールを引き受けます。function-role: Dogu の実行ロール（運用者が許可した場合）。',
    },
  }),
  field('accessKeyId', 'text', 'Access key ID', 'アクセスキー ID'),
  field('secretAccessKey', 'password', 'Secret access key', 'シークレットアクセスキー', {
    secret: true,
    hint: {
      en: 'Write-only: leave empty to keep the stored key.',
      ja: '書き込み専用です。空のままにすると保存済みのキーを使います。',
    },
  }),
  field('audience', 'text', 'Audience (OIDC)', 'Audience（OIDC）', {
    hint: {
      en: 'The client ID registered at the IAM OIDC provider for Dogu’s issuer.',
      ja: 'Dogu の発行者を登録した IAM OIDC プロバイダーのクライアント ID。',
    },
  }),
  field('roleArn', 'text', 'IAM role ARN (OIDC)', 'IAM ロール ARN（OIDC）'),
  field('stsEndpoint', 'text', 'STS endpoint (OIDC, optional)', 'STS エンドポイント（OIDC、任意）'),
];
