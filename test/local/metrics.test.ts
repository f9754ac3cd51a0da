import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalServer } from '../../local/http-server.ts';
import { metricsPath, serveMetrics } from '../../local/metrics.ts';
import type { StaticConsole } from '../../local/static-console.ts';
import { DoguError } from '../../shared/domain/errors.ts';

const noConsole: StaticConsole = { serve: async () => false } as unknown as StaticConsole;

describe('GET /local/v1/metrics', () => {
  let url: string;
  let server: ReturnType<typeof createLocalServer>;
  beforeAll(async () => {
    server = createLocalServer(new Map(), Promise.resolve(), noConsole, () => ({
      executionJournal: { size: 3, max: 20_000 },
    }));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers the memory by kind and each gauge with its bound, to a loopback caller', async () => {
    const response = await fetch(`${url}${metricsPath}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { memory: Record<string, number>; gauges: unknown };
    expect(Object.keys(body.memory).sort()).toEqual(
      ['arrayBuffersMb', 'externalMb', 'heapTotalMb', 'heapUsedMb', 'rssMb'].sort(),
    );
    expect(body.memory.rssMb).toBeGreaterThan(body.memory.heapUsedMb!);
    expect(body.gauges).toEqual({ executionJournal: { size: 3, max: 20_000 } });
  });

  it('refuses a caller from another machine with 403', () => {
    const request = {
      method: 'GET',
      socket: { remoteAddress: '10.1.2.3' },
    } as unknown as IncomingMessage;
    const response = {} as ServerResponse;
    let refused: unknown;
    try {
      serveMetrics(request, response, metricsPath, () => ({}));
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DoguError);
    expect((refused as DoguError).code).toBe('forbidden');
  });

  it('leaves every other path and method to the routes', () => {
    const request = { method: 'POST', socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
    expect(serveMetrics(request, {} as ServerResponse, metricsPath, () => ({}))).toBe(false);
    const get = { method: 'GET', socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
    expect(serveMetrics(get, {} as ServerResponse, '/healthz', () => ({}))).toBe(false);
  });
});
