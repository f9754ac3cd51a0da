/**
 * The HTTP API: one route per deployable entry of shared/http/routes.ts, each
 * integrated (payload format 2.0) with the Lambda function of its handler; the
 * routes of one handler share its integration.
 * No API Gateway authorizer: the handlers verify bearer tokens themselves, so the
 * embedded runtime and AWS run the same authentication code.
 *
 * One integration per function, shared by all its routes, invoked with one role for the whole API
 * (not an integration and a permission per route): a new route costs one resource (decision 0023).
 */

import type { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  HttpIntegrationType,
  HttpMethod,
  HttpRoute,
  HttpRouteIntegration,
  type HttpRouteIntegrationConfig,
  HttpRouteKey,
  type HttpStage,
  type IAccessLogDestination,
  IntegrationCredentials,
  PayloadFormatVersion,
  type ThrottleSettings,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { type Route, routeKeyOf } from '../../shared/http/routes.ts';
import { deployableRoutes } from '../deployable-routes.ts';
import { acknowledge } from '../nag.ts';

export interface DoguHttpApiProps {
  stage: string;
  /** The function of each handler module; every deployable route's handler must be here. */
  functionsByHandler: ReadonlyMap<string, IFunction>;
  /** Applied to every route of the default stage. */
  throttle: ThrottleSettings;
  /** JSON access logs of the default stage (infra/constructs/access-log.ts). */
  accessLog?: { destination: IAccessLogDestination; format: AccessLogFormat };
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
 * A Lambda proxy integration that API Gateway invokes with a role (CDK's HttpLambdaIntegration
 * adds a resource-based permission per route, or per function with `scopePermissionToRoute: false`).
 */
class FunctionIntegration extends HttpRouteIntegration {
  readonly #fn: IFunction;
  readonly #credentials: IntegrationCredentials;

  constructor(id: string, fn: IFunction, credentials: IntegrationCredentials) {
    super(id);
    this.#fn = fn;
    this.#credentials = credentials;
  }

  bind(): HttpRouteIntegrationConfig {
    return {
      type: HttpIntegrationType.AWS_PROXY,
      uri: this.#fn.functionArn,
      payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
      credentials: this.#credentials,
    };
  }
}

export class DoguHttpApi extends Construct {
  readonly api: HttpApi;
  /** The role API Gateway invokes every function with. */
  readonly invokeRole: Role;
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
      ...(props.accessLog ? { accessLogSettings: props.accessLog } : {}),
    });

    acknowledge(
      this,
      'APIG4',
      'No API Gateway authorizer on purpose: every handler verifies the bearer token or session itself (shared/http/handler.ts), so AWS and the embedded runtime run the same authentication; public routes (health, IdP discovery, login) need none.',
    );

    // API Gateway invokes the functions with this role: one role and its policy instead of a
    // resource-based permission per function (decision 0023).
    this.invokeRole = new Role(this, 'InvokeRole', {
      description: `Dogu (${props.stage}) HTTP API invokes its functions`,
      // Only principals allowed to pass this role (iam:PassRole) can attach it to an integration.
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
    });
    const credentials = IntegrationCredentials.fromRole(this.invokeRole);
    const integrations = new Map<string, FunctionIntegration>();
    for (const route of deployableRoutes()) {
      const fn = props.functionsByHandler.get(route.handler);
      if (!fn) throw new Error(`Route '${route.name}': no function for handler '${route.handler}'.`);
      let integration = integrations.get(route.handler);
      if (!integration) {
        // The first route of a handler makes its integration; the others reuse it.
        integration = new FunctionIntegration(`${handlerIdOf(route.handler)}Integration`, fn, credentials);
        integrations.set(route.handler, integration);
        fn.grantInvoke(this.invokeRole);
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
