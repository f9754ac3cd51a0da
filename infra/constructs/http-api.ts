/**
 * The HTTP API: one integration (payload format 2.0) per handler module's function, and the route
 * keys of infra/api-route-keys.ts, each covering a subtree of shared/http/routes.ts that one
 * handler serves; the function finds the route in the same table (decision 0165).
 * No API Gateway authorizer: the handlers verify bearer tokens themselves, so the
 * embedded runtime and AWS run the same authentication code.
 *
 * One integration per function, invoked with one role for the whole API (not an integration and a
 * permission per route, decision 0023). The route resources, which grow with the table, live in a
 * nested stack of their own (`Routes`): the main stack's count does not move with a new route. The
 * API, its stage and `$default` stay in the main stack, so the API keeps its id and URL.
 */

import { NestedStack } from 'aws-cdk-lib';
import type { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  CfnRoute,
  HttpApi,
  HttpIntegration,
  HttpIntegrationType,
  type HttpStage,
  type IAccessLogDestination,
  IntegrationCredentials,
  PayloadFormatVersion,
  type ThrottleSettings,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { Route } from '../../shared/http/routes.ts';
import { apiRouteKeys } from '../api-route-keys.ts';
import { deployableRoutes } from '../deployable-routes.ts';
import { acknowledge } from '../nag.ts';

export interface DoguHttpApiProps {
  stage: string;
  /** The function of each handler module; every deployable route's handler must be here. */
  functionsByHandler: ReadonlyMap<string, IFunction>;
  /** Applied to every route key of the default stage (a key may cover several routes, decision 0165). */
  throttle: ThrottleSettings;
  /** JSON access logs of the default stage (infra/constructs/access-log.ts). */
  accessLog?: { destination: IAccessLogDestination; format: AccessLogFormat };
  /** The deployable routes; the route table's by default (a test grows it). */
  routes?: readonly Route[];
}

export class DoguHttpApi extends Construct {
  readonly api: HttpApi;
  /** The role API Gateway invokes every function with. */
  readonly invokeRole: Role;
  readonly defaultStage: HttpStage;
  /** The nested stack holding every route but `$default`. */
  readonly routesStack: NestedStack;

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
    const integrations = new Map<string, HttpIntegration>();
    const integrationOf = (handler: string) => {
      let integration = integrations.get(handler);
      if (integration) return integration;
      const fn = props.functionsByHandler.get(handler);
      if (!fn) throw new Error(`No function for handler '${handler}'.`);
      integration = new HttpIntegration(this, `${handlerIdOf(handler)}Integration`, {
        httpApi: this.api,
        integrationType: HttpIntegrationType.AWS_PROXY,
        integrationUri: fn.functionArn,
        payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
        credentials,
      });
      integrations.set(handler, integration);
      fn.grantInvoke(this.invokeRole);
      return integration;
    };

    this.routesStack = new NestedStack(this, 'Routes', {
      description: `Dogu (${props.stage}) HTTP API routes, derived from the route table`,
    });
    for (const { key, handler } of apiRouteKeys(props.routes ?? deployableRoutes())) {
      const target = `integrations/${integrationOf(handler).integrationId}`;
      // `$default` keeps its place in the main stack, at the construct path (so the logical id) it
      // had as an HttpRoute: a route key is unique per API, and a second `$default` made in the
      // nested stack before the old one is deleted would fail the update.
      const scope = key === '$default' ? new Construct(this, 'notFoundRoute') : this.routesStack;
      new CfnRoute(scope, key === '$default' ? 'Resource' : routeIdOf(key), {
        apiId: this.api.apiId,
        routeKey: key,
        target,
        authorizationType: 'NONE',
      });
    }
  }
}

/** `review-requests` → `ReviewRequests`: a construct id per handler module. */
const handlerIdOf = (handler: string) =>
  handler.replace(/(^|-)([a-z])/g, (_match, _dash, letter: string) => letter.toUpperCase());

/** `ANY /api/v1/{proxy+}` → `ANY |api|v1|{proxy+}`: the route key as a construct id (which may hold no `/`). */
const routeIdOf = (key: string) => key.replaceAll('/', '|');
