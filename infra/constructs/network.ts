/**
 * Private networks (docs/deploy.md, "Private databases"; decision 0050): opt-in. Only the functions
 * that run actions are placed in the VPC; everything else stays outside, where it reaches DynamoDB and
 * the other AWS APIs without a NAT's cost or latency.
 *
 * - `created`: a VPC with public and private subnets in two zones, NAT gateways with Elastic IPs
 *   (the fixed egress addresses to put on database allow-lists, output as EgressIps), gateway
 *   endpoints for DynamoDB and S3, optional interface endpoints, and flow logs.
 * - `existing`: the operator's VPC and private subnets by id; Dogu adds only its security group. The
 *   subnets need a route to the internet (NAT) or interface endpoints for the AWS APIs the functions
 *   call (listed in `awsApisOfActionFunctions`).
 */
import { CfnOutput, Fn, RemovalPolicy } from 'aws-cdk-lib';
import {
  FlowLogDestination,
  GatewayVpcEndpointAwsService,
  InterfaceVpcEndpointAwsService,
  IpAddresses,
  type ISubnet,
  type IVpc,
  Port,
  SecurityGroup,
  Subnet,
  SubnetType,
  Vpc,
} from 'aws-cdk-lib/aws-ec2';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

export type NetworkSettings =
  | {
      mode: 'created';
      /** NAT gateways (one Elastic IP each): 1 is cheapest, 2 survives a zone outage. */
      natGateways?: number;
      /** Interface endpoints for the AWS APIs, so their traffic never leaves the VPC (about 7 USD a month each per zone). */
      interfaceEndpoints?: boolean;
      /** The VPC's address range. */
      cidr?: string;
    }
  | {
      mode: 'existing';
      vpcId: string;
      /** Private subnets with a route to a NAT (or endpoints for every API below). */
      subnetIds: readonly string[];
      /** Interface endpoints to create in the existing VPC (when it has no NAT). */
      interfaceEndpoints?: boolean;
    };

/** The AWS APIs a function that runs actions calls besides DynamoDB and S3 (gateway endpoints). */
export const awsApisOfActionFunctions = [
  InterfaceVpcEndpointAwsService.KMS,
  InterfaceVpcEndpointAwsService.SECRETS_MANAGER,
  InterfaceVpcEndpointAwsService.STS,
  InterfaceVpcEndpointAwsService.STEP_FUNCTIONS,
  new InterfaceVpcEndpointAwsService('scheduler'),
  InterfaceVpcEndpointAwsService.LAMBDA,
  InterfaceVpcEndpointAwsService.SES,
  InterfaceVpcEndpointAwsService.XRAY,
] as const;

export class Network extends Construct {
  readonly vpc: IVpc;
  readonly subnets: ISubnet[];
  readonly securityGroup: SecurityGroup;
  /** The functions placed in the VPC. */
  readonly attached: LambdaFunction[] = [];

  constructor(scope: Construct, id: string, settings: NetworkSettings) {
    super(scope, id);
    if (settings.mode === 'created') {
      const vpc = new Vpc(this, 'Vpc', {
        ...(settings.cidr ? { ipAddresses: IpAddresses.cidr(settings.cidr) } : {}),
        maxAzs: 2,
        natGateways: settings.natGateways ?? 1,
        subnetConfiguration: [
          { name: 'public', subnetType: SubnetType.PUBLIC, cidrMask: 24 },
          { name: 'functions', subnetType: SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 22 },
        ],
        gatewayEndpoints: {
          DynamoDb: { service: GatewayVpcEndpointAwsService.DYNAMODB },
          S3: { service: GatewayVpcEndpointAwsService.S3 },
        },
      });
      const flowLogs = new LogGroup(this, 'FlowLogs', {
        retention: RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      });
      vpc.addFlowLog('FlowLog', { destination: FlowLogDestination.toCloudWatchLogs(flowLogs) });
      this.vpc = vpc;
      this.subnets = vpc.privateSubnets;
      // The NAT gateways' Elastic IPs: every connection from an action leaves from one of these.
      const eips = vpc.publicSubnets
        .map((subnet) => subnet.node.tryFindChild('EIP'))
        .filter((eip): eip is Construct => eip !== undefined)
        .map((eip) => (eip as unknown as { attrPublicIp: string }).attrPublicIp);
      new CfnOutput(this, 'EgressIps', {
        value: Fn.join(',', eips),
        description:
          'Fixed egress addresses of the functions that run actions (put them on database allow-lists)',
      });
    } else {
      if (settings.subnetIds.length === 0) throw new Error('VPC mode existing needs at least one subnet id.');
      this.vpc = Vpc.fromVpcAttributes(this, 'Vpc', {
        vpcId: settings.vpcId,
        // Only used to satisfy CDK's model; subnets are taken by id below.
        availabilityZones: [Fn.select(0, Fn.getAzs())],
      });
      this.subnets = settings.subnetIds.map((subnetId, i) =>
        Subnet.fromSubnetId(this, `Subnet${i}`, subnetId),
      );
    }
    this.securityGroup = new SecurityGroup(this, 'ActionFunctions', {
      vpc: this.vpc,
      description: 'Dogu functions that run actions: no inbound, outbound to data sources',
      // Data sources listen on any port (PostgreSQL 5432, MySQL 3306, gRPC, HTTPS...).
      allowAllOutbound: true,
    });
    if (settings.interfaceEndpoints) {
      // HTTPS from the action functions only (not the whole VPC range).
      const endpoints = new SecurityGroup(this, 'Endpoints', {
        vpc: this.vpc,
        description: 'Dogu interface endpoints: HTTPS from the action functions',
        allowAllOutbound: false,
      });
      endpoints.addIngressRule(this.securityGroup, Port.tcp(443), 'HTTPS from Dogu action functions');
      for (const service of awsApisOfActionFunctions) {
        this.vpc.addInterfaceEndpoint(service.shortName.replace(/[^A-Za-z0-9]/g, ''), {
          service,
          subnets: { subnets: this.subnets },
          privateDnsEnabled: true,
          open: false,
          securityGroups: [endpoints],
        });
      }
    }
    new CfnOutput(this, 'ActionSecurityGroupId', {
      value: this.securityGroup.securityGroupId,
      description: 'Allow this security group on your databases (inbound from it)',
    });
  }

  /**
   * Places a function in the private subnets (on its CloudFormation resource, so functions made by
   * any construct can be attached) and lets its role manage the network interfaces Lambda needs.
   */
  attach(fn: LambdaFunction): void {
    const cfn = fn.node.defaultChild as CfnFunction;
    cfn.vpcConfig = {
      subnetIds: this.subnets.map((s) => s.subnetId),
      securityGroupIds: [this.securityGroup.securityGroupId],
    };
    // What AWSLambdaVPCAccessExecutionRole grants; ENI actions take no resource ARNs.
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: [
          'ec2:CreateNetworkInterface',
          'ec2:DescribeNetworkInterfaces',
          'ec2:DescribeSubnets',
          'ec2:DeleteNetworkInterface',
          'ec2:AssignPrivateIpAddresses',
          'ec2:UnassignPrivateIpAddresses',
        ],
        resources: ['*'],
      }),
    );
    this.attached.push(fn);
  }
}
