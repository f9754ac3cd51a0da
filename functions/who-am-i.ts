import { defineHandler } from '../shared/http/handler.ts';

/** GET /public/v1/me: the principal the token stands for. */
export const handler = defineHandler('whoAmI', async (request) => ({ status: 200, body: request.principal }));
