/** The S3 kind's connection (spec 2.3, object storage A): access keys, or OIDC through Dogu's own IdP. */
import * as z from 'zod';
import { awsAuthenticationModes, awsOidcFields } from '../aws-federation/aws-credentials.ts';

export const s3AuthenticationModes = awsAuthenticationModes;

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
  ...awsOidcFields,
  /** S3-compatible stores (MinIO, R2) and VPC endpoints; absent: AWS's endpoint of the region. */
  endpoint: httpUrl('the S3 endpoint').optional(),
  /** Path-style addressing (https://host/bucket/key), which most S3-compatible stores need. */
  forcePathStyle: z.boolean().default(false),
});
export type S3Connection = z.infer<typeof s3ConnectionSchema>;
