/**
 * A local Athena endpoint (the AWS JSON 1.1 protocol: POST / with X-Amz-Target) for end-to-end
 * runs through the real SDK client: it answers one scripted query at a time and records each call.
 */
import { startHttpServer, type TestServer } from '../../support/http-server.ts';

export interface AthenaScript {
  state?: 'SUCCEEDED' | 'FAILED';
  reason?: string;
  scannedBytes?: number;
  columns?: { Name: string; Type: string }[];
  /** Data rows (the header row is added as Athena does). */
  rows?: (string | null)[][];
}

export interface FakeAthena {
  url: string;
  server: TestServer;
  calls(operation: string): Record<string, unknown>[];
  script(next: AthenaScript): void;
  close(): Promise<void>;
}

export async function startFakeAthena(): Promise<FakeAthena> {
  let current: AthenaScript = {};
  let counter = 0;
  const server = await startHttpServer((request, response) => {
    const operation = String(request.headers['x-amz-target'] ?? '').replace('AmazonAthena.', '');
    const send = (status: number, body: unknown, type?: string) =>
      response
        .writeHead(status, {
          'content-type': 'application/x-amz-json-1.1',
          ...(type ? { 'x-amzn-errortype': type } : {}),
        })
        .end(JSON.stringify(body));
    if (!String(request.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 Credential=AKIA')) {
      return send(
        400,
        {
          __type: 'UnrecognizedClientException',
          message: 'The security token included in the request is invalid.',
        },
        'UnrecognizedClientException',
      );
    }
    const input = JSON.parse(request.body.toString() || '{}') as Record<string, unknown>;
    switch (operation) {
      case 'GetDatabase':
        return send(200, { Database: { Name: input.DatabaseName } });
      case 'StartQueryExecution':
        counter++;
        return send(200, { QueryExecutionId: `q-${counter}` });
      case 'GetQueryExecution':
        return send(200, {
          QueryExecution: {
            QueryExecutionId: input.QueryExecutionId,
            StatementType: 'DML',
            Status: {
              State: current.state ?? 'SUCCEEDED',
              ...(current.reason ? { AthenaError: { ErrorMessage: current.reason } } : {}),
            },
            Statistics: { DataScannedInBytes: current.scannedBytes ?? 0 },
          },
        });
      case 'GetQueryResults': {
        const columns = current.columns ?? [];
        const header = columns.map((c) => ({ VarCharValue: c.Name }));
        const data = (current.rows ?? []).map((r) => ({
          Data: r.map((v) => (v === null ? {} : { VarCharValue: v })),
        }));
        return send(200, {
          ResultSet: {
            ResultSetMetadata: { ColumnInfo: columns.map((c) => ({ ...c, Label: c.Name })) },
            Rows: [{ Data: header }, ...data],
          },
        });
      }
      case 'StopQueryExecution':
        return send(200, {});
      default:
        return send(
          400,
          { __type: 'InvalidRequestException', message: `unknown operation ${operation}` },
          'InvalidRequestException',
        );
    }
  });
  return {
    url: server.url,
    server,
    calls: (operation) =>
      server.requests
        .filter((r) => r.headers['x-amz-target'] === `AmazonAthena.${operation}`)
        .map((r) => JSON.parse(r.body.toString()) as Record<string, unknown>),
    script: (next) => {
      current = next;
    },
    close: () => server.close(),
  };
}
