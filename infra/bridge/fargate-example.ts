/**
 * An example CDK app for the customer's side (docs/bridge.md, "On AWS"): the bridge image on ECS
 * Fargate in the customer's VPC, behind a Network Load Balancer that passes TLS through (the
 * bridge terminates it with the certificate Dogu pins), reachable only from Dogu's fixed egress
 * addresses. Not part of Dogu's own stack:
 *
 *   npx cdk deploy --app "npx tsx infra/bridge/fargate-example.ts" \
 *     -c vpcId=vpc-0123 -c doguEgressIps=203.0.113.10/32,203.0.113.11/32 \
 *     -c bridgeConfigParameter=/dogu/bridge/config -c bridgeTlsSecret=dogu/bridge/tls
 *
 * The configuration (JSON, docs/bridge.md) sits in an SSM parameter; the certificate and key in a
 * Secrets Manager secret with the fields `cert` and `key` (PEM).
 */
import { App, CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Peer, Port, SecurityGroup, SubnetType, Vpc } from 'aws-cdk-lib/aws-ec2';
import {
  Cluster,
  ContainerImage,
  CpuArchitecture,
  Secret as EcsSecret,
  FargateService,
  FargateTaskDefinition,
  LogDrivers,
} from 'aws-cdk-lib/aws-ecs';
import { NetworkLoadBalancer, Protocol } from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { repoRoot } from '../paths.ts';

export interface BridgeServiceProps extends StackProps {
  vpcId: string;
  /** Dogu's fixed egress addresses (its NAT gateways' Elastic IPs, output as EgressIps), CIDR each. */
  doguEgressIps: string[];
  bridgeConfigParameter: string;
  bridgeTlsSecret: string;
  /** The port the bridge listens on inside the task (its config's `port`). */
  containerPort?: number;
}

export class BridgeServiceStack extends Stack {
  constructor(scope: Construct, id: string, props: BridgeServiceProps) {
    super(scope, id, props);
    const port = props.containerPort ?? 8443;
    const vpc = Vpc.fromLookup(this, 'Vpc', { vpcId: props.vpcId });
    const cluster = new Cluster(this, 'Cluster', { vpc });

    const task = new FargateTaskDefinition(this, 'Task', {
      cpu: 256,
      memoryLimitMiB: 512,
      runtimePlatform: { cpuArchitecture: CpuArchitecture.X86_64 },
    });
    const tls = Secret.fromSecretNameV2(this, 'Tls', props.bridgeTlsSecret);
    const config = StringParameter.fromStringParameterName(this, 'Config', props.bridgeConfigParameter);
    task.addContainer('Bridge', {
      image: ContainerImage.fromAsset(repoRoot, { file: 'infra/bridge/Dockerfile' }),
      portMappings: [{ containerPort: port }],
      // JSON log lines (no payloads, no secrets) to CloudWatch Logs.
      logging: LogDrivers.awsLogs({ streamPrefix: 'dogu-bridge' }),
      secrets: {
        DOGU_BRIDGE_CONFIG_JSON: EcsSecret.fromSsmParameter(config),
        DOGU_BRIDGE_TLS_CERT: EcsSecret.fromSecretsManager(tls, 'cert'),
        DOGU_BRIDGE_TLS_KEY: EcsSecret.fromSecretsManager(tls, 'key'),
      },
      readonlyRootFilesystem: true,
    });

    // Only Dogu's egress addresses reach the bridge (the NLB keeps the client's address).
    const tasks = new SecurityGroup(this, 'TaskSecurityGroup', { vpc, allowAllOutbound: true });
    for (const cidr of props.doguEgressIps)
      tasks.addIngressRule(Peer.ipv4(cidr), Port.tcp(port), 'Dogu egress');
    tasks.addIngressRule(Peer.ipv4(vpc.vpcCidrBlock), Port.tcp(port), 'load balancer health checks');

    const service = new FargateService(this, 'Service', {
      cluster,
      taskDefinition: task,
      desiredCount: 2,
      securityGroups: [tasks],
      vpcSubnets: { subnetType: SubnetType.PRIVATE_WITH_EGRESS },
      minHealthyPercent: 50,
    });

    const balancer = new NetworkLoadBalancer(this, 'Balancer', { vpc, internetFacing: true });
    balancer.addListener('Tls', { port: 443 }).addTargets('Bridge', {
      port,
      protocol: Protocol.TCP,
      preserveClientIp: true,
      targets: [service],
      healthCheck: { protocol: Protocol.TCP, interval: Duration.seconds(10) },
      deregistrationDelay: Duration.seconds(30),
    });
    new CfnOutput(this, 'BridgeUrl', {
      value: `https://${balancer.loadBalancerDnsName}`,
      description: "Register this URL (or your DNS name for it) in the project's settings",
    });
  }
}

const app = new App();
const context = (name: string): string => {
  const value = app.node.tryGetContext(name);
  if (typeof value !== 'string' || value === '')
    throw new Error(`Context '${name}' is required (-c ${name}=…).`);
  return value;
};
new BridgeServiceStack(app, 'DoguBridge', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  vpcId: context('vpcId'),
  doguEgressIps: context('doguEgressIps').split(','),
  bridgeConfigParameter: context('bridgeConfigParameter'),
  bridgeTlsSecret: context('bridgeTlsSecret'),
});
