import * as reservations from '../shared/domain/scheduling/reservations.ts';
import { defineRoutes, type HttpRequest } from '../shared/http/handler.ts';
import { connectorCatalog } from '../shared/runtime/groups/connector-catalog.ts';
import { scheduling } from '../shared/runtime/groups/scheduling.ts';
import { secretValues } from '../shared/runtime/groups/secret-values.ts';
import { compose, schedulingDeps } from '../shared/runtime/services.ts';

/** /api/v1/projects/{projectId}/environments/{environmentId}/reservations[/{reservationId}[/cancel]]: one-time runs. */
const scopeOf = (request: HttpRequest) => ({
  projectId: request.pathParameters.projectId!,
  environmentId: request.pathParameters.environmentId!,
});

export const handler = defineRoutes(
  {
    listReservations: async (request, services) => ({
      status: 200,
      body: {
        data: await reservations.listReservations(
          schedulingDeps(services),
          request.caller(),
          scopeOf(request),
        ),
      },
    }),
    createReservation: async (request, services) => ({
      status: 201,
      body: await reservations.createReservation(
        schedulingDeps(services),
        request.caller(),
        scopeOf(request),
        request.parseBody(reservations.reservationInputSchema),
      ),
    }),
    getReservation: async (request, services) => ({
      status: 200,
      body: await reservations.getReservation(
        schedulingDeps(services),
        request.caller(),
        scopeOf(request),
        request.pathParameters.reservationId!,
      ),
    }),
    cancelReservation: async (request, services) => ({
      status: 200,
      body: await reservations.cancelReservation(
        schedulingDeps(services),
        request.caller(),
        scopeOf(request),
        request.pathParameters.reservationId!,
      ),
    }),
  },
  compose(secretValues, connectorCatalog, scheduling),
);
