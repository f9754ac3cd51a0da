import { defineHandler } from '../shared/http/handler.ts';
import { openApiDocument } from '../shared/http/openapi.ts';

let document: ReturnType<typeof openApiDocument> | undefined;

/** GET /openapi.json: the OpenAPI 3.1 description of this API, built once per container. */
export const handler = defineHandler('openApi', async () => {
  document ??= openApiDocument();
  return { status: 200, body: document };
});
