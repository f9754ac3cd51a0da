/**
 * The embedded runtime's HTTP server: every route of the route table, served
 * by the same exported Lambda handlers that run on AWS.
 */
import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { DoguError } from '../shared/domain/errors.ts';
import { problemResponse } from '../shared/http/problem.ts';
import { matchRoute } from '../shared/http/route-matcher.ts';
import { routes } from '../shared/http/routes.ts';
import { toApiGatewayEvent, writeResult } from './api-gateway-event.ts';
import { type GaugeSource, serveMetrics } from './metrics.ts';
import { type StaticConsole, staticConsole } from './static-console.ts';

type LambdaHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/** API Gateway refuses payloads over 10 MB; Lambda over 6 MB. Refuse them here the same way. */
const maxBodyBytes = 6 * 1024 * 1024;
/**
 * A body must arrive whole within this time (a sync run's budget is 60 s; a client that sends its
 * headers and then nothing, or a byte a minute, would otherwise hold a connection for Node's 5-minute
 * requestTimeout with no answer). DOGU_BODY_TIMEOUT_SECONDS changes it.
 */
export const defaultBodyTimeoutMs = 30_000;

export interface LocalServerOptions {
  /** Time to receive a whole request body; past it: 408 and the connection is closed. */
  bodyTimeoutMs?: number;
  /** The longest synchronous run a handler serves (the runtime's execution limit). */
  maxExecutionMs?: number;
}

export async function loadHandlers(): Promise<Map<string, LambdaHandler>> {
  const handlers = new Map<string, LambdaHandler>();
  for (const route of routes) {
    const module = (await import(`../functions/${route.handler}.ts`)) as { handler: LambdaHandler };
    handlers.set(route.handler, module.handler);
  }
  return handlers;
}

/**
 * A handler's own budget sits this far above the longest run it serves, as a Lambda function's
 * timeout does on AWS: the run is cut at its limit, cancelled, recorded and answered within it.
 */
export const handlerBudgetMarginMs = 15_000;

/** `ready` holds requests back until the runtime has finished starting (seeding the demo). */
export function createLocalServer(
  handlers: Map<string, LambdaHandler>,
  ready: Promise<void> = Promise.resolve(),
  consoleFiles: StaticConsole = staticConsole(),
  gauges: GaugeSource = () => ({}),
  options: LocalServerOptions = {},
): Server {
  const handlerBudgetMs = (options.maxExecutionMs ?? 60_000) + handlerBudgetMarginMs;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? defaultBodyTimeoutMs;
  const server = createServer(async (request, response) => {
    try {
      await ready;
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (serveMetrics(request, response, url.pathname, gauges)) return;
      if (await consoleFiles.serve(request, response, url.pathname)) return;
      refuseDeclaredOversizeBody(request);
      const body = await readBody(request, bodyTimeoutMs);
      const match = matchRoute(request.method ?? 'GET', url.pathname);
      const event = toApiGatewayEvent(request, body, url, match);
      const handler = handlers.get(match.route.handler)!;
      answer(
        request,
        response,
        await handler(
          event,
          lambdaContext(match.route.name, event.requestContext.requestId, Date.now() + handlerBudgetMs),
        ),
      );
    } catch (error) {
      const problem =
        error instanceof DoguError
          ? error
          : new DoguError('internal_error', 'The request could not be handled.');
      answer(request, response, problemResponse(problem, randomUUID()));
    }
  });
  server.on('clientError', answerClientError);
  return server;
}

/**
 * A response written before the request body was read to its end (a 413, a refusal of the path)
 * leaves the rest of the body on the connection, where it would be read as the next request (or
 * wait forever): such a connection is closed after the answer instead of kept alive.
 */
function answer(
  request: IncomingMessage,
  response: ServerResponse,
  result: APIGatewayProxyStructuredResultV2,
) {
  if (!request.complete) {
    result = { ...result, headers: { ...result.headers, connection: 'close' } };
    response.on('finish', () => request.socket.destroySoon());
  }
  writeResult(response, result);
}

/** Node answers a malformed request itself with a bare status line; answer with Problem Details instead. */
function answerClientError(error: Error & { code?: string }, socket: Duplex) {
  if (!socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const problem = clientErrorProblem(error.code);
  const result = problemResponse(problem, randomUUID());
  const body = Buffer.from(result.body ?? '');
  const status = problem.status;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      `content-type: application/problem+json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body.toString('utf8')}`,
  );
}

function clientErrorProblem(code: string | undefined): DoguError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new DoguError('header_too_large', 'The request headers are larger than 16 KB.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADERS_TIMEOUT':
      return new DoguError('request_timeout', 'The request was not received in time.');
    default:
      return new DoguError('bad_request', 'The request is not valid HTTP/1.1.');
  }
}

/** A declared length over the limit is refused before a byte of the body is read. */
function refuseDeclaredOversizeBody(request: IncomingMessage) {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBodyBytes) throw payloadTooLarge();
}

const payloadTooLarge = () =>
  new DoguError('payload_too_large', `The request body exceeds ${maxBodyBytes} bytes.`);

/**
 * Reads the body up to the limit and within the time-out; past either, stops reading (the connection
 * is then closed, see answer()).
 */
function readBody(request: IncomingMessage, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (error: DoguError) => {
      clearTimeout(timer);
      request.off('data', onData).off('end', onEnd).pause();
      reject(error);
    };
    const timer = setTimeout(
      () =>
        stop(
          new DoguError(
            'request_timeout',
            `The request body was not received within ${timeoutMs / 1000} s; the connection is closed.`,
          ),
        ),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) {
        chunks.push(chunk);
        return;
      }
      stop(payloadTooLarge());
    };
    const onEnd = () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    };
    request
      .on('data', onData)
      .on('end', onEnd)
      .on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
  });
}

function lambdaContext(functionName: string, requestId: string, deadline: number): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: `dogu-local-${functionName}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:dogu-local-${functionName}`,
    memoryLimitInMB: '0',
    awsRequestId: requestId,
    logGroupName: 'local',
    logStreamName: 'local',
    // middy ends a handler that outlives this (as Lambda would): it must outlive every run it serves.
    getRemainingTimeInMillis: () => Math.max(1, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
