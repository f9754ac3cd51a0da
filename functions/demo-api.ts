import { randomBytes } from 'node:crypto';
import { demoMediaFile } from '../local/demo-media.ts';
import { DoguError } from '../shared/domain/errors.ts';
import { defineRoutes } from '../shared/http/handler.ts';

/**
 * A tiny HTTP API the embedded runtime serves for its demo HTTP data source, so
 * the HTTP demo works with no network. Local only; never deployed.
 * It asks for an API key header and a bearer token from its login, like real APIs do.
 */
const demoApiKey = 'demo-key-123';
const issued = new Set<string>();

function requireApiKey(headers: Record<string, string | undefined>) {
  if (headers['x-api-key'] !== demoApiKey)
    throw new DoguError('unauthorized', 'The demo API needs X-Api-Key.');
}

const rates: Record<string, number> = { JPY: 1, USD: 0.0066, EUR: 0.0062, GBP: 0.0053, KRW: 9.3 };

export const handler = defineRoutes({
  demoApiLogin: async (request) => {
    requireApiKey(request.event.headers);
    const token = `demo-${randomBytes(12).toString('hex')}`;
    issued.add(token);
    return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: 3600 } };
  },
  demoApiExchangeRates: async (request) => {
    requireApiKey(request.event.headers);
    const token = /^Bearer (\S+)$/.exec(request.event.headers.authorization ?? '')?.[1];
    if (!token || !issued.has(token))
      throw new DoguError('unauthorized', 'The demo API needs a token from /login.');
    const base = (request.event.queryStringParameters?.base ?? 'JPY').toUpperCase();
    const baseRate = rates[base];
    if (!baseRate) throw new DoguError('not_found', `No rates for '${base}'.`);
    return {
      status: 200,
      body: Object.entries(rates).map(([currency, rate]) => ({
        base,
        currency,
        rate: Math.round((rate / baseRate) * 1e6) / 1e6,
      })),
    };
  },
  /** The product gallery's pictures, clips and sheets: public, like a CDN's. */
  demoApiMedia: async (request) => {
    const file = await demoMediaFile(request.pathParameters.file ?? '');
    if (!file) throw new DoguError('not_found', 'The demo has no such media file.');
    return {
      status: 200,
      binary: file.body,
      headers: { 'content-type': file.contentType, 'cache-control': 'public, max-age=86400' },
    };
  },
  demoApiShipment: async (request) => {
    requireApiKey(request.event.headers);
    const orderId = Number(request.pathParameters.orderId);
    if (!Number.isInteger(orderId) || orderId < 1) throw new DoguError('not_found', 'No such order.');
    const carriers = ['Yamato', 'Sagawa', 'Japan Post'];
    return {
      status: 200,
      body: {
        orderId,
        carrier: carriers[orderId % carriers.length],
        trackingNumber: `${4000_0000_0000 + orderId * 7919}`,
        status: ['label created', 'in transit', 'delivered'][orderId % 3],
      },
    };
  },
});
