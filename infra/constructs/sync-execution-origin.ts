/**
 * Synchronous executions up to the spec's minute on AWS (decision 0055): API Gateway waits at most
 * 30 s, so CloudFront sends the execution route to the `execute-action` function's URL instead, with
 * the origin read timeout at 60 s (CloudFront's default maximum; more needs a quota increase). The
 * same function, handler, auth and Problem Details serve both ways in; through the URL the domain
 * cuts a run at 57 s so it is recorded and answered before CloudFront gives up.
 *
 * The URL's auth type is NONE (with IAM and origin access control every POST client would have to
 * send a body hash); the API paths' viewer-request function, which ConsoleHosting adds to these
 * behaviors too, sets the stack's origin-verify header (the same secret the API uses to trust the
 * viewer address, decision 0053; read from a KeyValueStore, decision 0171), and the handler refuses
 * function-URL requests without it (shared/http/function-url.ts).
 */
import { Duration } from 'aws-cdk-lib';
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  OriginRequestPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { FunctionUrlAuthType, type Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/** CloudFront's origin read timeout without a quota increase. */
export const originReadTimeout = Duration.seconds(60);
/** The run is cut here, leaving 3 s to record the outcome and answer. */
export const maxFunctionUrlExecutionMs = 57_000;
/** The function's own limit: above the cut, so Lambda never ends it mid-answer. */
export const functionUrlTimeout = Duration.seconds(65);
/** The execution route in CloudFront's path-pattern syntax (`*` matches any characters). */
export const executionPathPattern = '/public/v1/projects/*/environments/*/actions/*/executions';

export class SyncExecutionOrigin extends Construct {
  /** Behaviors to place before the general API ones (CloudFront takes the first that matches). */
  readonly behaviors: Record<string, BehaviorOptions>;

  constructor(scope: Construct, id: string, props: { executeAction: LambdaFunction }) {
    super(scope, id);
    const url = props.executeAction.addFunctionUrl({ authType: FunctionUrlAuthType.NONE });
    props.executeAction.addEnvironment('DOGU_MAX_URL_EXECUTION_MS', String(maxFunctionUrlExecutionMs));
    this.behaviors = {
      [executionPathPattern]: {
        origin: new FunctionUrlOrigin(url, { readTimeout: originReadTimeout }),
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        compress: true,
      },
    };
  }
}
