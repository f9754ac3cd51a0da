/**
 * The one table's key schema, shared by the CDK stack and the embedded
 * runtime's table creation so the two can never drift. See docs/data-model.md.
 */
export const tableSchema = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds after which DynamoDB deletes the item (within about two days): markers, tokens. */
  timeToLiveAttribute: 'ttl',
  indexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
} as const;

export const keys = {
  project: (projectId: string) => ({ pk: `PROJECT#${projectId}`, sk: '#PROJECT' }),
  environment: (projectId: string, environmentId: string) => ({
    pk: `PROJECT#${projectId}`,
    sk: `ENV#${environmentId}`,
  }),
  membership: (projectId: string, principalId: string) => ({
    pk: `PROJECT#${projectId}`,
    sk: `MEMBER#${principalId}`,
  }),
  dataSource: (projectId: string, dataSourceId: string) => ({
    pk: `PROJECT#${projectId}`,
    sk: `DATASOURCE#${dataSourceId}`,
  }),
  action: (projectId: string, actionId: string) => ({ pk: `PROJECT#${projectId}`, sk: `ACTION#${actionId}` }),
  user: (userId: string) => ({ pk: `USER#${userId}`, sk: '#USER' }),
  userEmail: (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: '#EMAIL' }),
  execution: (executionId: string) => ({ pk: `EXECUTION#${executionId}`, sk: '#EXECUTION' }),
  /**
   * A running execution's marker, written with its `running` record and deleted with its final one
   * (decision 0056): the sweeper reads overdue runs by Query, in deadline order, never by Scan.
   * Spread over `liveExecutionShards` partitions so many concurrent runs do not share one.
   */
  liveExecution: (executionId: string, deadlineAt: string) => ({
    pk: `LIVEEXEC#${liveExecutionShard(executionId)}`,
    sk: `${deadlineAt}#${executionId}`,
  }),
  marker: (name: string) => ({ pk: `MARKER#${name}`, sk: '#MARKER' }),
  review: (projectId: string, reviewId: string) => ({ pk: `PROJECT#${projectId}`, sk: `REVIEW#${reviewId}` }),
  masterData: (projectId: string, masterDataId: string) => ({
    pk: `PROJECT#${projectId}`,
    sk: `MASTER#${masterDataId}`,
  }),
  variable: (projectId: string, environmentId: string, name: string) => ({
    pk: `PROJECT#${projectId}`,
    sk: `VAR#${environmentId}#${name}`,
  }),
  secret: (projectId: string, environmentId: string, name: string) => ({
    pk: `PROJECT#${projectId}`,
    sk: `SECRET#${environmentId}#${name}`,
  }),
  // Members, user groups, action groups
  lock: (name: string) => ({ pk: `LOCK#${name}`, sk: '#LOCK' }),
  userGroup: (projectId: string, groupId: string) => ({
    pk: `PROJECT#${projectId}`,
    sk: `UGROUP#${groupId}`,
  }),
  /** Index item: lets one Query answer "which groups of this project list the principal". */
  principalGroup: (projectId: string, principalId: string, groupId: string) => ({
    pk: `PROJECT#${projectId}`,
    sk: `PRINCIPALGROUP#${principalId}#${groupId}`,
  }),
  actionGroup: (projectId: string, groupId: string) => ({
    pk: `PROJECT#${projectId}`,
    sk: `AGROUP#${groupId}`,
  }),
  // Views (docs/views.md); versions and publications of actions and views: dynamodb-versioned-documents.ts
  view: (projectId: string, viewId: string) => ({ pk: `PROJECT#${projectId}`, sk: `VIEW#${viewId}` }),
  // Service accounts and trust policies
  serviceAccount: (projectId: string, serviceAccountId: string) => ({
    pk: `PROJECT#${projectId}`,
    sk: `SA#${serviceAccountId}`,
  }),
  /** Uniqueness claim of a service account's e-mail address (like `EMAIL#` for users). */
  serviceAccountEmail: (email: string) => ({ pk: `SAEMAIL#${email.toLowerCase()}`, sk: '#SAEMAIL' }),
  trustPolicy: (projectId: string, policyId: string) => ({
    pk: `PROJECT#${projectId}`,
    sk: `TRUSTPOLICY#${policyId}`,
  }),
  /** gsi1 keys of a trust policy: every policy of one issuer across projects, in matching order. */
  trustPolicyByIssuer: (issuer: string, createdAt: string, projectId: string, policyId: string) => ({
    gsi1pk: `TRUSTISSUER#${issuer}`,
    gsi1sk: `${createdAt}#${projectId}#${policyId}`,
  }),
  // Scheduling (docs/data-model.md, "Scheduling"). gsi1 entries of runs, reservations and batches are
  // sparse: only records in a non-final status carry them, so recovery reads only live work.
  cronJob: (projectId: string, jobId: string) => ({ pk: `PROJECT#${projectId}`, sk: `CRONJOB#${jobId}` }),
  /** gsi1 keys of a cron job: every job of every project (the embedded scheduler's start-up). */
  cronJobIndex: (projectId: string, jobId: string) => ({
    gsi1pk: 'CRONJOBS',
    gsi1sk: `${projectId}#${jobId}`,
  }),
  /** Job ids are UUIDv7, unique across projects: a job's runs are one partition, newest last. */
  cronRun: (jobId: string, scheduledAt: string) => ({ pk: `CRONRUN#${jobId}`, sk: scheduledAt }),
  cronRunByStatus: (status: string, scheduledAt: string, jobId: string) => ({
    gsi1pk: `CRONRUNSTATUS#${status}`,
    gsi1sk: `${scheduledAt}#${jobId}`,
  }),
  reservation: (projectId: string, reservationId: string) => ({
    pk: `PROJECT#${projectId}`,
    sk: `RESERVATION#${reservationId}`,
  }),
  reservationByStatus: (status: string, runAt: string, reservationId: string) => ({
    gsi1pk: `RESERVATIONSTATUS#${status}`,
    gsi1sk: `${runAt}#${reservationId}`,
  }),
  batch: (projectId: string, batchId: string) => ({ pk: `PROJECT#${projectId}`, sk: `BATCH#${batchId}` }),
  batchByStatus: (status: string, batchId: string) => ({ gsi1pk: `BATCHSTATUS#${status}`, gsi1sk: batchId }),
  batchChunk: (batchId: string, index: number) => ({
    pk: `BATCHCHUNK#${batchId}`,
    sk: String(index).padStart(6, '0'),
  }),
  executionResultPart: (executionId: string, part: number) => ({
    pk: `EXECRESULT#${executionId}`,
    sk: `PART#${String(part).padStart(6, '0')}`,
  }),
  /** Written after every part: a result without it is incomplete and is not read. */
  executionResultMeta: (executionId: string) => ({ pk: `EXECRESULT#${executionId}`, sk: '#META' }),
  runtimeValue: (name: string) => ({ pk: `RUNTIME#${name}`, sk: '#VALUE' }),
  // Uploaded files of data sources (protosets) and upload tokens (docs/decisions/0033, 0034).
  /** Version ids are time-ordered: one environment's versions sort oldest first. */
  fileVersion: (projectId: string, dataSourceId: string, environmentId: string, versionId: string) => ({
    pk: `PROJECT#${projectId}`,
    sk: `FILEVER#${dataSourceId}#${environmentId}#${versionId}`,
  }),
  uploadToken: (projectId: string, tokenId: string) => ({
    pk: `PROJECT#${projectId}`,
    sk: `UPLOADTOKEN#${tokenId}`,
  }),
  /** gsi1 keys of an upload token: a presented token names only its id, not its project. */
  uploadTokenById: (tokenId: string) => ({ gsi1pk: `UPLOADTOKEN#${tokenId}`, gsi1sk: '#' }),
};

export const liveExecutionShards = 8;

function liveExecutionShard(executionId: string): number {
  let hash = 0;
  for (let i = 0; i < executionId.length; i++) hash = (hash * 31 + executionId.charCodeAt(i)) >>> 0;
  return hash % liveExecutionShards;
}
