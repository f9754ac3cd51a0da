/**
 * What an operator watches (docs/deploy.md, "Alarms and what to do"): one SNS topic, an alarm for
 * every way work can be lost or stuck, a dashboard, Step Functions logs and X-Ray on the state
 * machines. Lambda metrics are summed over groups of at most ten functions (CloudWatch's limit
 * for a metric-math alarm), so 40+ functions cost a handful of alarms, not two each (decision 0052).
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, type ILogGroup, LogGroup, MetricFilter, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { type CfnStateMachine, LogLevel, type StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { acknowledge } from '../nag.ts';

export interface OperationsProps {
  stage: string;
  /** Every Lambda function of the stack (their errors and throttles are alarmed in groups). */
  functions: readonly LambdaFunction[];
  table: TableV2;
  /** Queues whose every message is lost work (the scheduler's dead letters). */
  deadLetterQueues: readonly Queue[];
  stateMachines: readonly StateMachine[];
  /** Where the API functions log; audit write failures are counted from it. */
  apiLogGroup: ILogGroup;
  /** The HTTP API's id, for its 5xx metric. */
  httpApiId: string;
  /** Subscribed to the alarm topic (context `alarmEmail`). */
  alarmEmail?: string;
  retainLogs: boolean;
}

/** The log line shared/http/audit-recording.ts writes when an audit entry could not be stored. */
export const auditWriteFailureMessage = 'audit entry could not be written';
/** CloudWatch allows at most ten metrics in one metric-math alarm. */
const metricsPerAlarm = 10;
const period = Duration.minutes(5);

export class Operations extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;
  readonly namespace: string;

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    this.namespace = `Dogu/${props.stage}`;
    this.topic = new Topic(this, 'Alarms', {
      displayName: `Dogu (${props.stage}) alarms`,
      enforceSSL: true,
    });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);
    const alarm = (alarmId: string, description: string, metric: IMetric, threshold = 1) => {
      const made = new Alarm(this, alarmId, {
        alarmDescription: `Dogu (${props.stage}): ${description} See docs/deploy.md, "Alarms and what to do".`,
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      made.addAlarmAction(action);
      this.alarms.push(made);
      return made;
    };
    // Ids unique across the stack: a dashboard graph may show several of these sums.
    let sums = 0;
    const sumOf = (label: string, metrics: IMetric[]) => {
      const prefix = `s${++sums}m`;
      return new MathExpression({
        expression: `SUM([${metrics.map((_, i) => `${prefix}${i}`).join(',')}])`,
        usingMetrics: Object.fromEntries(metrics.map((m, i) => [`${prefix}${i}`, m])),
        label,
        period,
      });
    };

    const groups = chunk(props.functions, metricsPerAlarm);
    const errorMetrics: IMetric[] = [];
    const throttleMetrics: IMetric[] = [];
    groups.forEach((group, i) => {
      const errors = sumOf(
        `Function errors ${i + 1}`,
        group.map((fn) => fn.metricErrors({ period, statistic: 'Sum' })),
      );
      const throttles = sumOf(
        `Function throttles ${i + 1}`,
        group.map((fn) => fn.metricThrottles({ period, statistic: 'Sum' })),
      );
      errorMetrics.push(errors);
      throttleMetrics.push(throttles);
      alarm(`FunctionErrors${i + 1}`, `a function failed (group ${i + 1} of ${groups.length}).`, errors);
      alarm(
        `FunctionThrottles${i + 1}`,
        `a function was throttled (group ${i + 1} of ${groups.length}).`,
        throttles,
      );
    });

    props.deadLetterQueues.forEach((queue, i) => {
      acknowledge(queue, 'SQS3', 'This queue is itself a dead-letter queue; its depth is alarmed.');
      alarm(
        `DeadLetters${i + 1}`,
        'a scheduled run never started (a message is in the dead-letter queue).',
        queue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
      );
    });

    const machineMetrics: IMetric[] = [];
    props.stateMachines.forEach((machine, i) => {
      const failures = sumOf(`State machine ${i + 1} failures`, [
        machine.metricFailed({ period, statistic: 'Sum' }),
        machine.metricTimedOut({ period, statistic: 'Sum' }),
        machine.metricAborted({ period, statistic: 'Sum' }),
      ]);
      machineMetrics.push(failures);
      alarm(
        `StateMachineFailures${i + 1}`,
        'a job or batch execution failed, timed out or was aborted.',
        failures,
      );
      this.#logAndTrace(machine, i, props.retainLogs);
    });

    const tableMetric = (metricName: string) =>
      new Metric({
        namespace: 'AWS/DynamoDB',
        metricName,
        dimensionsMap: { TableName: props.table.tableName },
        period,
        statistic: 'Sum',
      });
    const tableThrottles = sumOf('DynamoDB throttled requests', [
      tableMetric('ReadThrottleEvents'),
      tableMetric('WriteThrottleEvents'),
    ]);
    alarm('TableThrottles', 'DynamoDB throttled reads or writes of the table.', tableThrottles);

    new MetricFilter(this, 'AuditWriteFailuresFilter', {
      logGroup: props.apiLogGroup,
      filterPattern: FilterPattern.stringValue('$.message', '=', auditWriteFailureMessage),
      metricNamespace: this.namespace,
      metricName: 'AuditWriteFailures',
      metricValue: '1',
      defaultValue: 0,
    });
    const auditFailures = new Metric({
      namespace: this.namespace,
      metricName: 'AuditWriteFailures',
      period,
      statistic: 'Sum',
    });
    alarm('AuditWriteFailures', 'a change was made but its audit entry could not be written.', auditFailures);

    const api5xx = new Metric({
      namespace: 'AWS/ApiGateway',
      metricName: '5xx',
      dimensionsMap: { ApiId: props.httpApiId },
      period,
      statistic: 'Sum',
    });
    alarm('Api5xx', 'the API answered 5xx at least 5 times in 5 minutes.', api5xx, 5);

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `Dogu-${props.stage}`,
      widgets: [
        [
          new TextWidget({
            markdown: `# Dogu (${props.stage})\nAlarms go to the SNS topic; what to do: docs/deploy.md.`,
            width: 24,
            height: 2,
          }),
        ],
        [
          new GraphWidget({
            title: 'API requests and 5xx',
            left: [
              new Metric({
                namespace: 'AWS/ApiGateway',
                metricName: 'Count',
                dimensionsMap: { ApiId: props.httpApiId },
                period,
                statistic: 'Sum',
              }),
            ],
            right: [api5xx],
            width: 12,
          }),
          new GraphWidget({
            title: 'API latency (p99)',
            left: [
              new Metric({
                namespace: 'AWS/ApiGateway',
                metricName: 'Latency',
                dimensionsMap: { ApiId: props.httpApiId },
                period,
                statistic: 'p99',
              }),
            ],
            width: 12,
          }),
        ],
        [
          new GraphWidget({ title: 'Function errors', left: errorMetrics, width: 12 }),
          new GraphWidget({ title: 'Function throttles', left: throttleMetrics, width: 12 }),
        ],
        [
          new GraphWidget({
            title: 'Jobs and batches: failed, timed out, aborted',
            left: machineMetrics,
            width: 8,
          }),
          new GraphWidget({
            title: 'Dead letters',
            left: props.deadLetterQueues.map((q) => q.metricApproximateNumberOfMessagesVisible({ period })),
            width: 8,
          }),
          new GraphWidget({
            title: 'DynamoDB throttles, audit write failures',
            left: [tableThrottles, auditFailures],
            width: 8,
          }),
        ],
      ],
    });
  }

  /**
   * Step Functions logs (errors only, without execution data: arguments may be personal data) and
   * X-Ray, set on the L1 so machines made elsewhere (infra/scheduling.ts) get them unchanged.
   */
  #logAndTrace(machine: StateMachine, index: number, retainLogs: boolean): void {
    const logGroup = new LogGroup(this, `StateMachineLogs${index + 1}`, {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: retainLogs ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    const cfn = machine.node.defaultChild as CfnStateMachine;
    cfn.loggingConfiguration = {
      level: LogLevel.ERROR,
      includeExecutionData: false,
      destinations: [{ cloudWatchLogsLogGroup: { logGroupArn: logGroup.logGroupArn } }],
    };
    cfn.tracingConfiguration = { enabled: true };
    acknowledge(
      machine,
      'SF1',
      "Errors only and no execution data: inputs and outputs carry action arguments and results (personal data, secrets in flight); a run's own record is in DynamoDB.",
    );
    // What Step Functions needs to deliver logs and traces (these APIs take no resource ARNs).
    machine.addToRolePolicy(
      new PolicyStatement({
        actions: [
          'logs:CreateLogDelivery',
          'logs:GetLogDelivery',
          'logs:UpdateLogDelivery',
          'logs:DeleteLogDelivery',
          'logs:ListLogDeliveries',
          'logs:PutResourcePolicy',
          'logs:DescribeResourcePolicies',
          'logs:DescribeLogGroups',
          'xray:PutTraceSegments',
          'xray:PutTelemetryRecords',
          'xray:GetSamplingRules',
          'xray:GetSamplingTargets',
        ],
        resources: ['*'],
      }),
    );
  }
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
