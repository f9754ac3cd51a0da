import { defineHandler } from '../shared/http/handler.ts';
import { refuseUnservedRequest } from '../shared/http/not-found.ts';

/** The catch-all route: 405 when the path exists under another method, else 404. */
export const handler = defineHandler('notFound', async (request, services) =>
  refuseUnservedRequest(request.event, services.settings.localLogin),
);
