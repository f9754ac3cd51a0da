/**
 * GET /local/v1/metrics (embedded runtime only, from this machine only): the process's memory
 * split by where it lives, and the size of each bounded in-memory queue and cache with its bound,
 * so growth is visible before it hurts (decision 0062). Numbers only: no record, key or secret.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { forbidden } from '../shared/domain/errors.ts';

export const metricsPath = '/local/v1/metrics';

/** A queue or cache: how full it is now and the most it may hold. */
export interface Gauge {
  size: number;
  max: number;
}

export type GaugeSource = () => Record<string, Gauge>;

export function memoryNow() {
  const m = process.memoryUsage();
  const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;
  return {
    rssMb: mb(m.rss),
    heapUsedMb: mb(m.heapUsed),
    heapTotalMb: mb(m.heapTotal),
    /** Memory of C++ objects bound to JavaScript, WebAssembly memories (PGlite, QuickJS) included. */
    externalMb: mb(m.external),
    arrayBuffersMb: mb(m.arrayBuffers),
  };
}

const isLoopback = (ip: string | undefined) =>
  ip === '::1' || ip?.startsWith('127.') || ip?.startsWith('::ffff:127.');

/** Answers the metrics path (403 Problem Details from elsewhere); false for any other request. */
export function serveMetrics(
  request: IncomingMessage,
  response: ServerResponse,
  pathname: string,
  gauges: GaugeSource,
): boolean {
  if (pathname !== metricsPath || request.method !== 'GET') return false;
  if (!isLoopback(request.socket.remoteAddress)) {
    throw forbidden('The metrics are available only from the local machine.');
  }
  const body = JSON.stringify({ memory: memoryNow(), gauges: gauges() });
  response.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  response.end(body);
  return true;
}
