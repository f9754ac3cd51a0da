/** Amazon Athena data sources (spec 2.3): where queries run, where results go, whose keys. */
import * as z from 'zod';
import { awsAuthenticationModes, awsOidcFields } from '../aws-federation/aws-credentials.ts';

/** s3://bucket/prefix with a bucket name S3 accepts (3–63 lower-case letters, digits, dots, hyphens). */
export const s3LocationPattern = /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[^\s]*)?$/;

export const athenaConnectionSchema = z.object({
  region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/, 'an AWS region such as ap-northeast-1'),
  database: z.string().min(1).max(255),
  /** Query result location: Athena writes every result here. */
  outputLocation: z.string().max(1024).regex(s3LocationPattern, 'an S3 location such as s3://bucket/prefix/'),
  workgroup: z
    .string()
    .regex(/^[a-zA-Z0-9._-]{1,128}$/, 'a workgroup name (letters, digits, . _ -)')
    .optional(),
  /** The data catalog; Athena's default is AwsDataCatalog (Glue). */
  catalog: z.string().min(1).max(256).optional(),
  /**
   * keys, oidc (Dogu's ID token assumes a role) or function-role. Absent, as before the modes
   * existed: keys when an access key is set, else the function's own role.
   */
  authentication: z.enum(awsAuthenticationModes, { error: 'must be keys, oidc or function-role' }).optional(),
  /** Without keys the function's own role runs the queries (the cloud permissions below). */
  accessKeyId: z.string().min(16).max(128).optional(),
  /** Write-only: stored encrypted, never returned, logged or recorded. */
  secretAccessKey: z.string().max(1024).optional(),
  ...awsOidcFields,
  /** A VPC endpoint or another Athena-compatible endpoint; default: the region's public one. */
  endpoint: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
  /** The data source's own time limit; ends a query before the execution's maximum. */
  statementTimeoutMs: z.number().int().min(1000).max(1_800_000).optional(),
});
export type AthenaConnection = z.infer<typeof athenaConnectionSchema>;

/** The mode a stored connection means, also for data sources saved before `authentication` existed. */
export const athenaAuthenticationOf = (connection: AthenaConnection) =>
  connection.authentication ?? (connection.accessKeyId ? 'keys' : 'function-role');

/**
 * What the executing functions need when a data source has no keys of its own: the calls the runtime
 * makes, and what spec 2.3 names. Athena reads the Glue Data Catalog and S3 with the caller's rights.
 */
export const athenaCloudPermissions = [
  // A query: start, poll, read the pages, stop at the time limit.
  'athena:StartQueryExecution',
  'athena:GetQueryExecution',
  'athena:GetQueryResults',
  'athena:StopQueryExecution',
  // Test connection: the database (Athena GetDatabase, which asks Glue).
  'athena:GetDatabase',
  // Prepared statements (spec 2.3; values are bound as ExecutionParameters today).
  'athena:GetPreparedStatement',
  'athena:CreatePreparedStatement',
  'athena:DeletePreparedStatement',
  // The catalog Athena reads for the caller.
  'glue:GetDatabase',
  'glue:GetDatabases',
  'glue:GetTable',
  'glue:GetTables',
  'glue:GetPartition',
  'glue:GetPartitions',
  // The data, and the result location Athena writes for the caller.
  's3:GetObject',
  's3:ListBucket',
  's3:GetBucketLocation',
  's3:PutObject',
  's3:AbortMultipartUpload',
  's3:ListMultipartUploadParts',
] as const;
