import { DoguError, notFound } from '../shared/domain/errors.ts';
import { defineHandler } from '../shared/http/handler.ts';
import { allowedMethods } from '../shared/http/route-matcher.ts';

/** The catch-all route: 405 when the path exists under another method, else 404. */
export const handler = defineHandler('notFound', async (request, services) => {
  const { method, path } = request.event.requestContext.http;
  // Local-only routes are not deployed to AWS: there they are unknown paths, not other methods.
  const allowed = allowedMethods(path, { includeLocalOnly: services.settings.localLogin });
  if (allowed.length > 0) {
    throw new DoguError(
      'method_not_allowed',
      `${method} is not allowed on ${path}; use ${allowed.join(', ')}.`,
      {
        headers: { allow: allowed.join(', ') },
      },
    );
  }
  throw notFound('Route', `${method} ${path}`);
});
