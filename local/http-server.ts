/**
 * The embedded runtime's HTTP server: every route of the route table, served
 * by the same exported Lambda handlers that run on AWS.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { DoguError } from '../shared/domain/errors.ts';
import { problemResponse } from '../shared/http/problem.ts';
import { matchRoute } from '../shared/http/route-matcher.ts';
import { routes } from '../shared/http/routes.ts';
import { toApiGatewayEvent, writeResult } from './api-gateway-event.ts';
import { type StaticConsole, staticConsole } from './static-console.ts';

type LambdaHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/** API Gateway refuses payloads over 10 MB; Lambda over 6 MB. Refuse them here the same way. */
const maxBodyBytes = 6 * 1024 * 1024;

export async function loadHandlers(): Promise<Map<string, LambdaHandler>> {
  const handlers = new Map<string, LambdaHandler>();
  for (const route of routes) {
    const module = (await import(`../functions/${route.handler}.ts`)) as { handler: LambdaHandler };
    handlers.set(route.handler, module.handler);
  }
  return handlers;
}

/** `ready` holds requests back until the runtime has finished starting (seeding the demo). */
export function createLocalServer(
  handlers: Map<string, LambdaHandler>,
  ready: Promise<void> = Promise.resolve(),
  consoleFiles: StaticConsole = staticConsole(),
): Server {
  return createServer(async (request, response) => {
    try {
      await ready;
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (await consoleFiles.serve(request, response, url.pathname)) return;
      const body = await readBody(request);
      const match = matchRoute(request.method ?? 'GET', url.pathname);
      const event = toApiGatewayEvent(request, body, url, match);
      const handler = handlers.get(match.route.handler)!;
      writeResult(
        response,
        await handler(event, lambdaContext(match.route.name, event.requestContext.requestId)),
      );
    } catch (error) {
      const problem =
        error instanceof DoguError
          ? error
          : new DoguError('internal_error', 'The request could not be handled.');
      writeResult(response, problemResponse(problem, randomUUID()));
    }
  });
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) {
      throw new DoguError('payload_too_large', `The request body exceeds ${maxBodyBytes} bytes.`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function lambdaContext(functionName: string, requestId: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: `dogu-local-${functionName}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:dogu-local-${functionName}`,
    memoryLimitInMB: '0',
    awsRequestId: requestId,
    logGroupName: 'local',
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 60_000,
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
