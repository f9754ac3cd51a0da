import { badRequest } from '../shared/domain/errors.ts';
import {
  networkPolicySchema,
  ruleInputSchema,
  targetInputSchema,
} from '../shared/domain/notifications/input.ts';
import * as notifications from '../shared/domain/notifications/settings.ts';
import { defineRoutes, type HttpRequest } from '../shared/http/handler.ts';
import type { CoreServices } from '../shared/runtime/core-services.ts';
import { notifications as notificationCenter } from '../shared/runtime/groups/notifications.ts';
import { scheduling } from '../shared/runtime/groups/scheduling.ts';
import { compose, type Services } from '../shared/runtime/services.ts';

/**
 * /api/v1/projects/{projectId}/notifications[/network-policy|/targets[/{targetId}[/test]]|/rules[/{ruleId}]|/deliveries]:
 * a project's notification targets and rules, the delivery log and a test send (docs/notifications.md).
 */
const deps = (services: CoreServices & Pick<Services, 'notifications' | 'schedules'>) => ({
  store: services.store,
  notifications: services.notifications,
  schedules: services.schedules,
});
const projectOf = (request: HttpRequest) => request.pathParameters.projectId!;

function pageQuery(request: HttpRequest) {
  const query = request.event.queryStringParameters ?? {};
  const limit = query.limit === undefined ? 50 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) {
    throw badRequest("'limit' must be an integer from 1 to 200.");
  }
  return { limit, ...(query.cursor ? { cursor: query.cursor } : {}) };
}

export const handler = defineRoutes(
  {
    getNotificationSettings: async (request, services) => ({
      status: 200,
      body: await notifications.getNotificationSettings(deps(services), request.caller(), projectOf(request)),
    }),
    putNotificationNetworkPolicy: async (request, services) => ({
      status: 200,
      body: await notifications.setNetworkPolicy(
        deps(services),
        request.caller(),
        projectOf(request),
        request.parseBody(networkPolicySchema).allowPrivateNetworks,
      ),
    }),
    createNotificationTarget: async (request, services) => ({
      status: 201,
      body: await notifications.saveTarget(
        deps(services),
        request.caller(),
        projectOf(request),
        undefined,
        request.parseBody(targetInputSchema),
      ),
    }),
    putNotificationTarget: async (request, services) => ({
      status: 200,
      body: await notifications.saveTarget(
        deps(services),
        request.caller(),
        projectOf(request),
        request.pathParameters.targetId!,
        request.parseBody(targetInputSchema),
      ),
    }),
    deleteNotificationTarget: async (request, services) => {
      await notifications.deleteTarget(
        deps(services),
        request.caller(),
        projectOf(request),
        request.pathParameters.targetId!,
      );
      return { status: 204 };
    },
    testNotificationTarget: async (request, services) => ({
      status: 200,
      body: await notifications.sendTest(
        deps(services),
        request.caller(),
        projectOf(request),
        request.pathParameters.targetId!,
      ),
    }),
    createNotificationRule: async (request, services) => ({
      status: 201,
      body: await notifications.saveRule(
        deps(services),
        request.caller(),
        projectOf(request),
        undefined,
        request.parseBody(ruleInputSchema),
      ),
    }),
    putNotificationRule: async (request, services) => ({
      status: 200,
      body: await notifications.saveRule(
        deps(services),
        request.caller(),
        projectOf(request),
        request.pathParameters.ruleId!,
        request.parseBody(ruleInputSchema),
      ),
    }),
    deleteNotificationRule: async (request, services) => {
      await notifications.deleteRule(
        deps(services),
        request.caller(),
        projectOf(request),
        request.pathParameters.ruleId!,
      );
      return { status: 204 };
    },
    listNotificationDeliveries: async (request, services) => {
      const page = await notifications.listDeliveries(
        deps(services),
        request.caller(),
        projectOf(request),
        pageQuery(request),
      );
      return {
        status: 200,
        body: {
          data: page.deliveries,
          has_more: page.cursor !== undefined,
          ...(page.cursor ? { next_cursor: page.cursor } : {}),
        },
      };
    },
  },
  compose(notificationCenter, scheduling),
);
