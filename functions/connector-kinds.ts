import { connectorKinds } from '../shared/connectors/descriptors.ts';
import { defineRoutes } from '../shared/http/handler.ts';

/** GET /api/v1/connector-kinds: every data-source kind and its form, for the console and clients. */
export const handler = defineRoutes({
  listConnectorKinds: async (request) => {
    request.caller();
    return { status: 200, body: { data: connectorKinds() } };
  },
});
