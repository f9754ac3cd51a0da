/** The HTTP API kind's schemas (spec 2.3, 2.5): connection per environment and the action. */
import * as z from 'zod';
import type { ActionInput } from '../../domain/definitions/action.ts';
import { keyValueListSchema } from '../../domain/definitions/data-source.ts';

export const httpConnectionSchema = z.object({
  url: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }),
  /** Sent with every request of this data source; values may use {{ vars.x }} and {{ secrets.x }}. */
  headers: keyValueListSchema.optional(),
  timeoutMs: z.number().int().min(100).max(60_000).optional(),
  /**
   * On AWS private (RFC 1918) addresses are refused unless this is true; loopback, link-local and
   * metadata addresses are refused regardless (decision 0058).
   */
  allowPrivateNetworks: z.boolean().optional(),
});
export type HttpConnection = z.infer<typeof httpConnectionSchema>;

export const httpMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'PURGE'] as const;

/**
 * Request bodies per request type. Every text may hold {{ references }}:
 * - json: a JSON text; a reference standing for a whole value becomes that value as JSON, one inside a string is escaped into it.
 * - raw: text sent as it is, with `contentType` (default text/plain).
 * - form-data / x-www-form-urlencoded: fields; a form-data field may carry a file parameter.
 * - graphql: a query, optional operation name and variables (a JSON text like json).
 */
export const httpBodySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('none') }),
  z.object({ type: z.literal('json'), json: z.string().max(100_000) }),
  z.object({
    type: z.literal('raw'),
    raw: z.string().max(100_000),
    contentType: z.string().max(200).optional(),
  }),
  z.object({ type: z.literal('form-data'), fields: keyValueListSchema }),
  z.object({ type: z.literal('x-www-form-urlencoded'), fields: keyValueListSchema }),
  z.object({
    type: z.literal('graphql'),
    query: z.string().min(1).max(100_000),
    variables: z.string().max(100_000).optional(),
    operationName: z.string().max(200).optional(),
  }),
]);
export type HttpBody = z.infer<typeof httpBodySchema>;

export const httpActionShape = {
  kind: z.literal('http'),
  method: z.enum(httpMethods),
  /** Appended to the data source URL; {{ }} in path segments is URL-encoded; a query string here is not sent. */
  path: z.string().max(2000).default(''),
  headers: keyValueListSchema.default([]),
  query: keyValueListSchema.default([]),
  body: httpBodySchema.default({ type: 'none' }),
};
const httpActionFields = z.object(httpActionShape);
export type HttpActionInput = ActionInput & z.infer<typeof httpActionFields>;

/** Every templated text of an HTTP action, by JSON Pointer. */
export function httpActionTexts(action: HttpActionInput): [string, string][] {
  const texts: [string, string][] = [['#/path', action.path]];
  action.headers.forEach((h, i) => {
    texts.push([`#/headers/${i}/value`, h.value]);
  });
  action.query.forEach((q, i) => {
    texts.push([`#/query/${i}/value`, q.value]);
  });
  const body = action.body;
  if (body.type === 'json') texts.push(['#/body/json', body.json]);
  if (body.type === 'raw') texts.push(['#/body/raw', body.raw]);
  if (body.type === 'graphql' && body.variables) texts.push(['#/body/variables', body.variables]);
  if (body.type === 'form-data' || body.type === 'x-www-form-urlencoded') {
    body.fields.forEach((f, i) => {
      texts.push([`#/body/fields/${i}/value`, f.value]);
    });
  }
  return texts;
}

/**
 * A `.` or `..` segment in any spelling URL parsers resolve: `..`, `%2e%2E`, `.%2e`. Backslashes
 * separate segments too (the WHATWG URL parser reads `\` as `/` in http(s) URLs).
 */
export const isDotSegment = (segment: string) => /^(?:\.|%2e){1,2}$/i.test(segment);

/** Why an action's path template climbs out of the base path, or undefined when it does not. */
export function dotSegmentProblem(pathTemplate: string): string | undefined {
  const path = pathTemplate.replace(/[?#].*$/s, '');
  return path.split(/[/\\]/).some(isDotSegment)
    ? "must not contain '.' or '..' segments (also written %2e): the path stays under the data source URL"
    : undefined;
}
