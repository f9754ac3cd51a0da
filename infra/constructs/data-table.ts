/** The one DynamoDB table holding all of Dogu's data, keyed as shared/adapters/dynamodb/table-schema.ts says. */
import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { tableSchema } from '../../shared/adapters/dynamodb/table-schema.ts';

export interface DataTableProps {
  /** On for production so neither a console click nor a stack mistake can drop the data. */
  deletionProtection: boolean;
}

const stringKey = (name: string) => ({ name, type: AttributeType.STRING });

export class DataTable extends Construct {
  readonly table: TableV2;
  readonly encryptionKey: Key;

  constructor(scope: Construct, id: string, props: DataTableProps) {
    super(scope, id);

    // A customer-managed key rather than the AWS-managed one: the table stores data-source
    // definitions and execution results, and with our own key we control the key policy, can
    // revoke all access at once by disabling the key, and see every use in CloudTrail under a
    // key we own. It costs about 1 USD a month; DynamoDB caches table keys, so KMS request
    // charges stay negligible. Retained, because a retained table is unreadable without it.
    this.encryptionKey = new Key(this, 'EncryptionKey', {
      description: 'Encrypts the Dogu DynamoDB table',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // TableV2 (AWS::DynamoDB::GlobalTable) now, because moving a Table to TableV2 later means
    // retaining and re-importing the live table; TableV2 also allows adding replicas.
    this.table = new TableV2(this, 'Table', {
      partitionKey: stringKey(tableSchema.partitionKey),
      sortKey: stringKey(tableSchema.sortKey),
      globalSecondaryIndexes: tableSchema.indexes.map((index) => ({
        indexName: index.name,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        projectionType: ProjectionType.ALL,
      })),
      // Markers of running executions, leases and a job's stored rows expire (decision 0056).
      timeToLiveAttribute: tableSchema.timeToLiveAttribute,
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryptionV2.customerManagedKey(this.encryptionKey),
      deletionProtection: props.deletionProtection,
      // Data outlives the stack in every stage: deleting a stack must never delete data.
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
