/**
 * The HTTP API: one route per deployable entry of shared/http/routes.ts, each
 * integrated (payload format 2.0) with the Lambda function of its handler.
 * No API Gateway authorizer: the handlers verify bearer tokens themselves, so the
 * embedded runtime and AWS run the same authentication code.
 *
 * One integration per function, shared by all its routes, and one invoke permission per function
 * scoped to this API (not one of each per route): a new route costs one resource (decision 0023).
 */
import { ArnFormat, Stack } from 'aws-cdk-lib';
import {
  HttpApi,
  HttpIntegrationType,
  HttpMethod,
  HttpRoute,
  HttpRouteIntegration,
  type HttpRouteIntegrationConfig,
  HttpRouteKey,
  type HttpStage,
  PayloadFormatVersion,
  type ThrottleSettings,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { type Route, routeKeyOf } from '../../shared/http/routes.ts';
import { deployableRoutes } from '../deployable-routes.ts';

export interface DoguHttpApiProps {
  stage: string;
  /** The function of each handler module; every deployable route's handler must be here. */
  functionsByHandler: ReadonlyMap<string, IFunction>;
  /** Applied to every route of the default stage. */
  throttle: ThrottleSettings;
}

/** The CDK route key of a table entry, checked against the table's own `routeKeyOf`. */
export function httpRouteKeyOf(route: Route): HttpRouteKey {
  const key =
    route.path === '$default'
      ? HttpRouteKey.DEFAULT
      : HttpRouteKey.with(route.path, HttpMethod[route.method]);
  if (key.key !== routeKeyOf(route)) {
    throw new Error(
      `Route '${route.name}': CDK made '${key.key}', the route table says '${routeKeyOf(route)}'.`,
    );
  }
  return key;
}

/**
 * A Lambda proxy integration that adds no permission per route (CDK's HttpLambdaIntegration does,
 * and its API-scoped variant, `*\/*\/*`, does not match the `$default` route's source ARN).
 */
class FunctionIntegration extends HttpRouteIntegration {
  readonly #fn: IFunction;

  constructor(id: string, fn: IFunction) {
    super(id);
    this.#fn = fn;
  }

  bind(): HttpRouteIntegrationConfig {
    return {
      type: HttpIntegrationType.AWS_PROXY,
      uri: this.#fn.functionArn,
      payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
    };
  }
}

export class DoguHttpApi extends Construct {
  readonly api: HttpApi;
  readonly defaultStage: HttpStage;

  constructor(scope: Construct, id: string, props: DoguHttpApiProps) {
    super(scope, id);

    // The default stage is made by hand because HttpApi's automatic one takes no throttling.
    this.api = new HttpApi(this, 'Api', {
      apiName: `dogu-${props.stage}`,
      description: `Dogu public API (${props.stage})`,
      createDefaultStage: false,
    });
    this.defaultStage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle,
    });

    // Any stage, method and path of this API; '*' in an ARN condition also spans '/'.
    const invokedByThisApi = Stack.of(this).formatArn({
      service: 'execute-api',
      resource: this.api.apiId,
      resourceName: '*',
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });
    const integrations = new Map<string, FunctionIntegration>();
    for (const route of deployableRoutes()) {
      const fn = props.functionsByHandler.get(route.handler);
      if (!fn) throw new Error(`Route '${route.name}': no function for handler '${route.handler}'.`);
      let integration = integrations.get(route.handler);
      if (!integration) {
        // The first route of a handler makes its integration; the others reuse it.
        integration = new FunctionIntegration(`${route.handler}Integration`, fn);
        integrations.set(route.handler, integration);
        fn.addPermission('InvokeByHttpApi', {
          principal: new ServicePrincipal('apigateway.amazonaws.com'),
          sourceArn: invokedByThisApi,
        });
      }
      new HttpRoute(this, `${route.name}Route`, {
        httpApi: this.api,
        routeKey: httpRouteKeyOf(route),
        integration,
      });
    }
  }
}
