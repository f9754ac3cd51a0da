/**
 * One role per set of needs (infra/function-needs.ts): functions that compose the same service
 * groups share a role, so a role never carries a right one of its functions could not use, and the
 * stack stays within its resource budget (a role and its policy per function would add ~90
 * resources; decision 0051). Nothing here uses CDK's broad `grantReadWriteData` (it includes Scan).
 */
import { Lazy, Stack } from 'aws-cdk-lib';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { AnyPrincipal, Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Key } from 'aws-cdk-lib/aws-kms';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ratePartitionPrefix } from '../../shared/adapters/rate-limit/dynamodb-rate-limiter.ts';
import { composedGroups, type Need, needsOf } from '../function-needs.ts';

export interface FunctionRolesProps {
  stage: string;
  table: TableV2;
  /** The table's key, which also encrypts secret values (DOGU_SECRETS_KEY_ID). */
  key: Key;
  signingKey: ISecret;
}

/** What a role may do with the table: no Scan anywhere (lists read by key or index). */
export const tableReadActions = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
];
export const tableWriteActions = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];
/** The partitions audit entries live in (shared/adapters/dynamodb/dynamodb-audit-log.ts). */
export const auditKeyPatterns = ['AUDIT#*'];
/** The partitions of per-client request counts. */
export const rateKeyPatterns = [`${ratePartitionPrefix}*`];

interface RoleEntry {
  role: Role;
  needs: readonly Need[];
  handlers: string[];
}

export class FunctionRoles extends Construct {
  readonly #props: FunctionRolesProps;
  readonly #byNeeds = new Map<string, RoleEntry>();

  constructor(scope: Construct, id: string, props: FunctionRolesProps) {
    super(scope, id);
    this.#props = props;
    // The key policy names the roles that may use the key directly (secret values); everyone else,
    // administrators included, can use it only through DynamoDB (reading the table they may read).
    props.key.addToResourcePolicy(
      new PolicyStatement({
        sid: 'OnlyNamedRolesUseTheKeyOutsideDynamoDB',
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: ['kms:Encrypt', 'kms:Decrypt', 'kms:ReEncrypt*', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: {
          StringNotEqualsIfExists: { 'kms:ViaService': this.#dynamoDbService() },
          // Resolved at synthesis, when every role exists.
          ArnNotEquals: {
            'aws:PrincipalArn': Lazy.list({
              produce: () => this.rolesWith('secret-values').map((role) => role.roleArn),
            }),
          },
        },
      }),
    );
  }

  /** The role of a handler, made on first use for its set of needs. */
  roleFor(handler: string): Role {
    const needs = needsOf(handler);
    // Functions share a role only if they also compose the same groups: a right added later for a
    // group (by whoever wires it) then reaches no function that does not compose it.
    const key = [...needs, ...composedGroups(handler).map((g) => `group:${g}`)].join('+');
    let entry = this.#byNeeds.get(key);
    if (!entry) {
      const role = new Role(this, `Role${this.#byNeeds.size + 1}`, {
        description: `Dogu (${this.#props.stage}) functions that need: ${needs.join(', ')}`.slice(0, 1000),
        assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      });
      entry = { role, needs, handlers: [] };
      this.#byNeeds.set(key, entry);
      this.#grantBase(role, needs);
    }
    entry.handlers.push(handler);
    return entry.role;
  }

  /** Lets the roles write their functions' log groups (instead of AWSLambdaBasicExecutionRole on '*'). */
  allowLogs(role: Role, logGroup: ILogGroup): void {
    logGroup.grantWrite(role);
  }

  /** Every role made so far, with its needs and handlers. */
  get entries(): readonly RoleEntry[] {
    return [...this.#byNeeds.values()];
  }

  /** The roles whose functions have a need (e.g. 'scheduling'). */
  rolesWith(need: Need): Role[] {
    return this.entries.filter((e) => e.needs.includes(need)).map((e) => e.role);
  }

  #dynamoDbService(): string {
    return `dynamodb.${Stack.of(this).region}.amazonaws.com`;
  }

  #grantBase(role: Role, needs: readonly Need[]): void {
    const { table, key, signingKey } = this.#props;
    const tableArns = [table.tableArn, `${table.tableArn}/index/*`];
    const viaDynamoDb = { StringEquals: { 'kms:ViaService': this.#dynamoDbService() } };
    role.addToPolicy(new PolicyStatement({ actions: tableReadActions, resources: tableArns }));
    role.addToPolicy(
      new PolicyStatement({
        actions: ['kms:Decrypt', 'kms:DescribeKey'],
        resources: [key.keyArn],
        conditions: viaDynamoDb,
      }),
    );
    const writesSomething = needs.includes('table-write') || needs.includes('audit-write');
    if (writesSomething) {
      role.addToPolicy(
        new PolicyStatement({
          actions: ['kms:Encrypt', 'kms:ReEncrypt*', 'kms:GenerateDataKey*'],
          resources: [key.keyArn],
          conditions: viaDynamoDb,
        }),
      );
    }
    if (needs.includes('table-write')) {
      role.addToPolicy(new PolicyStatement({ actions: tableWriteActions, resources: [table.tableArn] }));
    } else if (needs.includes('audit-write')) {
      // Only audit entries: a read-only function's request to an audited route still records one.
      role.addToPolicy(
        new PolicyStatement({
          actions: ['dynamodb:PutItem'],
          resources: [table.tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': auditKeyPatterns } },
        }),
      );
      // And its caller's request count (shared/adapters/rate-limit/dynamodb-rate-limiter.ts).
      role.addToPolicy(
        new PolicyStatement({
          actions: ['dynamodb:UpdateItem'],
          resources: [table.tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': rateKeyPatterns } },
        }),
      );
    }
    // Every function verifies bearer tokens on a cold start (shared/runtime/aws-core.ts).
    signingKey.grantRead(role);
    if (needs.includes('send-email')) {
      // Notifications and invitations through SES, from any identity verified in this account and region.
      role.addToPolicy(
        new PolicyStatement({
          actions: ['ses:SendEmail'],
          resources: [
            Stack.of(this).formatArn({ service: 'ses', resource: 'identity', resourceName: '*' }),
            Stack.of(this).formatArn({ service: 'ses', resource: 'configuration-set', resourceName: '*' }),
          ],
        }),
      );
    }
    if (needs.includes('secret-values')) {
      // Secret values are encrypted with an encryption context that names the secret (kms-cipher.ts).
      role.addToPolicy(
        new PolicyStatement({ actions: ['kms:Encrypt', 'kms:Decrypt'], resources: [key.keyArn] }),
      );
      key.addToResourcePolicy(
        new PolicyStatement({
          sid: `SecretValues${this.#byNeeds.size}`,
          principals: [role],
          actions: ['kms:Encrypt', 'kms:Decrypt'],
          resources: ['*'],
        }),
      );
    }
  }
}
