/**
 * The HTTP API: one route per deployable entry of shared/http/routes.ts, each
 * integrated (payload format 2.0) with the Lambda function of its handler; the
 * routes of one handler share its integration.
 * No API Gateway authorizer: the handlers verify bearer tokens themselves, so the
 * embedded runtime and AWS run the same authentication code.
 */
import {
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  type HttpStage,
  type ThrottleSettings,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
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

    // One integration and one API-wide invoke permission per function, shared by its routes: per
    // route they cost two more resources each, and the stack's 500-resource limit was reached.
    const integrations = new Map<string, HttpLambdaIntegration>();
    for (const route of deployableRoutes()) {
      const fn = props.functionsByHandler.get(route.handler);
      if (!fn) throw new Error(`Route '${route.name}': no function for handler '${route.handler}'.`);
      let integration = integrations.get(route.handler);
      if (!integration) {
        integration = new HttpLambdaIntegration(`${handlerIdOf(route.handler)}Integration`, fn, {
          scopePermissionToRoute: false,
        });
        integrations.set(route.handler, integration);
      }
      new HttpRoute(this, `${route.name}Route`, {
        httpApi: this.api,
        routeKey: httpRouteKeyOf(route),
        integration,
      });
    }
  }
}

/** `review-requests` → `ReviewRequests`: a construct id per handler module. */
const handlerIdOf = (handler: string) =>
  handler.replace(/(^|-)([a-z])/g, (_match, _dash, letter: string) => letter.toUpperCase());
