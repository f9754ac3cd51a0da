/** How one operation is described in the OpenAPI document (openapi.ts, openapi-accounts.ts). */
import type { z } from 'zod';

export interface OperationSpec {
  summary: string;
  body?: z.ZodType;
  /** The body may be left out (the operation then does its default). */
  bodyOptional?: boolean;
  ok?: { status: '200' | '201' | '202' | '204' | '302'; schema?: z.ZodType };
  /** Other success answers (a create that answers 201 where a replace answers 200; a 202). */
  also?: { status: '200' | '201' | '202'; description: string; schema?: z.ZodType }[];
  /** The success answer's media types and schemas, when it is not (only) JSON: a CSV download. */
  contentTypes?: Record<string, z.ZodType>;
  /** A multipart/form-data request body instead of JSON. */
  multipart?: z.ZodType;
  /** Problem Details statuses the operation answers besides the default (named per status). */
  errors?: Record<string, string>;
  /** Authenticated by a project's upload token header instead of a Bearer token. */
  uploadToken?: boolean;
}
