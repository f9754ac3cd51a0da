/** The S3 kind's connection (spec 2.3, object storage A): access keys, or OIDC through Dogu's own IdP. */
import { z } from 'zod';

/** function-role: the AWS credentials Dogu itself runs with (the Lambda role; locally the default chain). */
export const s3AuthenticationModes = ['keys', 'oidc', 'function-role'] as const;

/** arn:<partition>:iam::<12-digit account>:role/<path/name>, as IAM writes it. */
export const roleArnPattern = /^arn:aws(?:-[a-z]+)*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;

const httpUrl = (what: string) =>
  z.url({ protocol: /^https?$/, error: `must be an http or https URL (${what})` });

export const s3ConnectionSchema = z.object({
  region: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$/, { error: 'must be a region name such as ap-northeast-1' }),
  authentication: z
    .enum(s3AuthenticationModes, { error: 'must be keys, oidc or function-role' })
    .default('keys'),
  accessKeyId: z.string().min(1).max(256).optional(),
  /** Secret field: encrypted at rest, never returned. */
  secretAccessKey: z.string().max(256).optional(),
  /** OIDC: the `aud` of Dogu's token, equal to the client ID registered at the IAM OIDC provider. */
  audience: z.string().min(1).max(1000).optional(),
  /** OIDC: the role assumed with the token (AssumeRoleWithWebIdentity). */
  roleArn: z
    .string()
    .regex(roleArnPattern, {
      error: 'must be an IAM role ARN such as arn:aws:iam::123456789012:role/dogu-storage',
    })
    .optional(),
  /** S3-compatible stores (MinIO, R2) and VPC endpoints; absent: AWS's endpoint of the region. */
  endpoint: httpUrl('the S3 endpoint').optional(),
  /** Path-style addressing (https://host/bucket/key), which most S3-compatible stores need. */
  forcePathStyle: z.boolean().default(false),
  /** OIDC: a regional or VPC STS endpoint; absent: STS of the region. */
  stsEndpoint: httpUrl('the STS endpoint').optional(),
});
export type S3Connection = z.infer<typeof s3ConnectionSchema>;
