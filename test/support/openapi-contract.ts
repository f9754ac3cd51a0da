/**
 * Checks real answers of a running Dogu against its own `/openapi.json` with a JSON Schema
 * validator (Ajv, draft 2020-12 as OpenAPI 3.1 uses): the answer's status must be documented for
 * its operation (or fall under `default` for an error), and a JSON body must validate against the
 * schema documented for that status. A JSON success body with no schema is itself a finding.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Operation = { operationId: string; responses: Record<string, { content?: Record<string, unknown> }> };
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

export interface Answer {
  status: number;
  contentType: string;
  body: unknown;
}

export interface ContractChecker {
  /** Every operation of the document: name, method, path template. */
  operations: { name: string; method: string; path: string }[];
  /** Problems with one answer of operation `name` (empty: it agrees with the document). */
  check(name: string, answer: Answer): string[];
  /** Whether the operation documents a success with a body (not 204, not a redirect) but no schema for it. */
  successWithoutSchema(name: string): boolean;
}

const escapePointer = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');

export function contractChecker(document: OpenApiDocument): ContractChecker {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addSchema(document as object, 'openapi.json');
  const byName = new Map<string, { method: string; path: string; operation: Operation }>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item))
      byName.set(operation.operationId, { method, path, operation });
  }
  const compiled = new Map<string, ValidateFunction>();
  const validatorOf = (ref: string) => {
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      compiled.set(ref, validate);
    }
    return validate;
  };
  return {
    operations: [...byName].map(([name, { method, path }]) => ({ name, method: method.toUpperCase(), path })),
    successWithoutSchema(name) {
      const responses = byName.get(name)?.operation.responses ?? {};
      return Object.entries(responses).some(
        ([status, response]) => /^2\d\d$/.test(status) && status !== '204' && !response.content,
      );
    },
    check(name, answer) {
      const found = byName.get(name);
      if (!found) return [`${name}: not in the document`];
      const { method, path, operation } = found;
      const status = String(answer.status);
      const documented = operation.responses[status];
      const key = documented ? status : answer.status >= 400 ? 'default' : undefined;
      if (!key || !operation.responses[key]) return [`${name}: status ${status} is not documented`];
      const mediaType = answer.contentType.split(';')[0]!.trim();
      const isJson = mediaType === 'application/json' || mediaType === 'application/problem+json';
      if (!isJson || answer.body === undefined) return [];
      const content = operation.responses[key]!.content ?? {};
      const documentedType =
        mediaType in content ? mediaType : Object.keys(content).find((t) => t.includes('json'));
      if (!documentedType) return [`${name}: ${status} ${mediaType} has no schema in the document`];
      const ref = `openapi.json#/paths/${escapePointer(path)}/${method}/responses/${key}/content/${escapePointer(documentedType)}/schema`;
      const validate = validatorOf(ref);
      if (validate(answer.body)) return [];
      // A union reports every branch; the first few lines say enough.
      return (validate.errors ?? [])
        .slice(0, 4)
        .map(
          (e) =>
            `${name} ${status}: ${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
        );
    },
  };
}
