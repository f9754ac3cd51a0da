import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../shared/http/openapi.ts';
import { type Route, routes } from '../../shared/http/routes.ts';

type Operation = { operationId: string; summary: string; requestBody?: unknown };

describe('OpenAPI document', () => {
  const document = openApiDocument() as unknown as {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
  };

  it('describes every deployed route, and only those', () => {
    // The MCP endpoint (ANY) speaks JSON-RPC: MCP describes it, not OpenAPI (decision 0197).
    const deployed = (routes as readonly Route[]).filter(
      (r) => r.path !== '$default' && !r.localOnly && r.method !== 'ANY',
    );
    const described = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(described.sort()).toEqual(deployed.map((r) => `${r.method} ${r.path} ${r.name}`).sort());
    expect(document.openapi).toBe('3.1.0');
  });

  it('gives every operation a summary of its own, and every PUT a request body', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.summary, `${method} ${path}`).not.toBe(operation.operationId);
        if (method === 'put') expect(operation.requestBody, `${method} ${path}`).toBeDefined();
      }
    }
  });
});
