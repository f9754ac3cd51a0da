/**
 * The cloud rights a data-source kind names (ConnectorDefinition.cloudPermissions), granted only to
 * the functions that run actions, and only for the kinds the operator lets run with the functions'
 * own role (context `functionRoleKinds`, e.g. "athena"): by default a data source brings its own
 * keys and the functions get no Athena, Glue or S3 rights at all.
 *
 * The rights are scoped to what the operator names (decision 0102): Athena to its workgroups (and
 * the account's default data catalog), Glue to its databases and their tables, S3 to its buckets
 * (data and query results). A kind whose rights need resources nobody named fails the synth.
 */
import { Arn, ArnFormat, Stack } from 'aws-cdk-lib';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { connectors } from '../shared/connectors/index.ts';

/** What the function-role kinds may reach (contexts `athenaWorkgroups`, `glueDatabases`, `dataBuckets`). */
export interface ConnectorResources {
  /** Athena workgroups queries run in; `primary` when unset. */
  athenaWorkgroups?: readonly string[];
  /** Glue databases of the default catalog (`AwsDataCatalog`) the queries read. */
  glueDatabases?: readonly string[];
  /** Buckets of the data and of the query results (names, not ARNs). */
  dataBuckets?: readonly string[];
}

export function connectorPermissions(kinds: readonly string[]): string[] {
  const unknown = kinds.filter((kind) => !connectors.some((c) => c.kind === kind));
  if (unknown.length > 0) {
    throw new Error(`functionRoleKinds names unknown data-source kinds: ${unknown.join(', ')}.`);
  }
  return [
    ...new Set(connectors.filter((c) => kinds.includes(c.kind)).flatMap((c) => c.cloudPermissions)),
  ].sort();
}

/** S3 actions on a bucket itself; every other S3 action is on its objects. */
const bucketLevelS3 = new Set(['s3:ListBucket', 's3:GetBucketLocation']);
const namePattern = /^[A-Za-z0-9._-]{1,255}$/;

function named(kind: string, values: readonly string[] | undefined, context: string): readonly string[] {
  if (!values || values.length === 0) {
    throw new Error(
      `functionRoleKinds needs ${kind} to scope its rights: set context '${context}' (comma-separated).`,
    );
  }
  const bad = values.filter((v) => !namePattern.test(v));
  if (bad.length > 0)
    throw new Error(`Context '${context}' has names that are not plain: ${bad.join(', ')}.`);
  return values;
}

/** One statement per service, each on the resources the operator named. */
export function connectorStatements(
  stack: Stack,
  kinds: readonly string[],
  resources: ConnectorResources,
): PolicyStatement[] {
  const actions = connectorPermissions(kinds);
  if (actions.length === 0) return [];
  const arn = (service: string, resource: string, resourceName?: string) =>
    Arn.format(
      {
        service,
        resource,
        ...(resourceName ? { resourceName } : {}),
        arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
      },
      stack,
    );
  const by = (prefix: string) => actions.filter((a) => a.startsWith(`${prefix}:`));
  const statements: PolicyStatement[] = [];
  const athena = by('athena');
  if (athena.length > 0) {
    const workgroups = resources.athenaWorkgroups?.length ? resources.athenaWorkgroups : ['primary'];
    named('Athena workgroups', workgroups, 'athenaWorkgroups');
    statements.push(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: athena,
        resources: [
          ...workgroups.map((w) => arn('athena', 'workgroup', w)),
          // athena:GetDatabase is authorised on the catalog it reads.
          arn('athena', 'datacatalog', 'AwsDataCatalog'),
        ],
      }),
    );
  }
  const glue = by('glue');
  if (glue.length > 0) {
    const databases = named('Glue databases', resources.glueDatabases, 'glueDatabases');
    statements.push(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: glue,
        resources: [
          Arn.format({ service: 'glue', resource: 'catalog' }, stack),
          ...databases.map((d) => arn('glue', 'database', d)),
          ...databases.map((d) => arn('glue', 'table', `${d}/*`)),
        ],
      }),
    );
  }
  const s3 = by('s3');
  if (s3.length > 0) {
    const buckets = named('data buckets', resources.dataBuckets, 'dataBuckets');
    const bucketArn = (b: string) => `arn:${stack.partition}:s3:::${b}`;
    const onBuckets = s3.filter((a) => bucketLevelS3.has(a));
    const onObjects = s3.filter((a) => !bucketLevelS3.has(a));
    if (onBuckets.length > 0)
      statements.push(
        new PolicyStatement({ effect: Effect.ALLOW, actions: onBuckets, resources: buckets.map(bucketArn) }),
      );
    if (onObjects.length > 0)
      statements.push(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: onObjects,
          resources: buckets.map((b) => `${bucketArn(b)}/*`),
        }),
      );
  }
  const scoped = new Set(statements.flatMap((s) => s.actions));
  const unscoped = actions.filter((a) => !scoped.has(a));
  if (unscoped.length > 0) {
    // A new kind's rights need their own scoping here before they can be granted.
    throw new Error(
      `No resource scope is known for ${unscoped.join(', ')} (infra/connector-permissions.ts).`,
    );
  }
  return statements;
}

export function grantConnectorPermissions(
  actionRunners: Iterable<IFunction>,
  kinds: readonly string[],
  resources: ConnectorResources = {},
): void {
  const runners = [...actionRunners];
  if (runners.length === 0) return;
  const statements = connectorStatements(Stack.of(runners[0]!), kinds, resources);
  for (const fn of runners) for (const statement of statements) fn.addToRolePolicy(statement);
}
