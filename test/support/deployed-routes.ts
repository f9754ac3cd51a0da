/**
 * The HTTP API's routes as synthesized: every route resource of the main stack and of its nested
 * `Routes` stack, followed through its integration to the function and the handler module that
 * function runs. Read from the templates, not from infra/, so a stack that drifts is caught.
 */
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { DoguStack } from '../../infra/dogu-stack.ts';

interface Resource {
  Type: string;
  Properties: Record<string, unknown>;
}

export interface DeployedRoute {
  key: string;
  handler: string;
  /** Which template holds the route resource. */
  stack: 'main' | 'routes';
  authorizationType: unknown;
  /** The logical id (in the main stack) of the API the route belongs to. */
  api: string;
  integration: Record<string, unknown>;
}

type Ref = { Ref: string };
const targetRef = (route: Resource) =>
  ((route.Properties.Target as { 'Fn::Join': [string, [string, Ref]] })['Fn::Join'][1][1] as Ref).Ref;

export function deployedRoutes(stack: DoguStack): DeployedRoute[] {
  const main = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
  const routesStack = stack.httpApi.routesStack;
  const nested = Template.fromStack(routesStack).toJSON().Resources as Record<string, Resource>;
  const nestedResource = main[stack.getLogicalId(routesStack.nestedStackResource as never)]!;
  const parameters = nestedResource.Properties.Parameters as Record<string, Ref>;
  const handlerOfFunction = new Map(
    [...stack.functionsByHandler].map(([handler, fn]) => [
      stack.getLogicalId(fn.node.defaultChild as CfnFunction),
      handler,
    ]),
  );
  const resolve = (
    route: Resource,
    integrationId: string,
    api: string,
    where: DeployedRoute['stack'],
  ): DeployedRoute => {
    const integration = main[integrationId]!;
    if (integration.Type !== 'AWS::ApiGatewayV2::Integration')
      throw new Error(`${integrationId} is no integration`);
    const uri = integration.Properties.IntegrationUri as { 'Fn::GetAtt': [string, string] };
    const handler = handlerOfFunction.get(uri['Fn::GetAtt'][0]);
    if (!handler) throw new Error(`Integration ${integrationId} invokes no handler function`);
    return {
      key: route.Properties.RouteKey as string,
      handler,
      stack: where,
      api,
      authorizationType: route.Properties.AuthorizationType,
      integration: integration.Properties,
    };
  };
  const routeResources = (resources: Record<string, Resource>) =>
    Object.values(resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route');
  return [
    ...routeResources(main).map((route) =>
      resolve(route, targetRef(route), (route.Properties.ApiId as Ref).Ref, 'main'),
    ),
    ...routeResources(nested).map((route) =>
      resolve(
        route,
        parameters[targetRef(route)]!.Ref,
        parameters[(route.Properties.ApiId as Ref).Ref]!.Ref,
        'routes',
      ),
    ),
  ];
}
