/**
 * The HTTP API's access log: one JSON object per request. Behind CloudFront `sourceIp` is the edge's
 * address; the viewer's is in CloudFront's own access log and in the audit entry (decision 0053).
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** The fields of each entry: API Gateway's own variables, no request headers or bodies. */
export const accessLogFields = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  sourceIp: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
} as const;

export class ApiAccessLog extends Construct {
  readonly logGroup: LogGroup;
  readonly settings: { destination: LogGroupLogDestination; format: AccessLogFormat };

  constructor(scope: Construct, id: string, props: { retain: boolean }) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: RetentionDays.THREE_MONTHS,
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.settings = {
      destination: new LogGroupLogDestination(this.logGroup),
      format: AccessLogFormat.custom(JSON.stringify(accessLogFields)),
    };
  }
}
