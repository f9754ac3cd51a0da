/** How one operation is described in the OpenAPI document (openapi.ts). */
import type { z } from 'zod';

export interface OperationSpec {
  summary: string;
  body?: z.ZodType;
  ok?: { status: '200' | '201' | '204'; schema?: z.ZodType };
  contentTypes?: Record<string, z.ZodType>;
  /** Refusals worth naming; every operation also has the `default` Problem Details response. */
  errors?: Partial<Record<ErrorStatus, string>>;
}

export type ErrorStatus = '400' | '401' | '403' | '404' | '409' | '415' | '422' | '429' | '503';
