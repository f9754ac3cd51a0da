import { defineHandler } from '../shared/http/handler.ts';

/** GET /healthz: 200 once the runtime's services are up. */
export const handler = defineHandler('health', async () => ({ status: 200, body: { status: 'ok' } }));
