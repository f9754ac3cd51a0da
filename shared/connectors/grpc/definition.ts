/** The gRPC kind's schemas (spec 2.5, 2.10): connection per environment and the action. */
import * as z from 'zod';
import type { ActionInput } from '../../domain/definitions/action.ts';
import { keyValueListSchema } from '../../domain/definitions/data-source.ts';

/** host:port, [v6]:port; no scheme (TLS is its own switch). */
const addressPattern = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?):\d{1,5}$/;

export const grpcServiceSources = ['reflection', 'protoset'] as const;

export const grpcConnectionSchema = z.object({
  address: z.string().max(300).regex(addressPattern, {
    error: 'must be host:port (for example api.example.com:443), without a scheme',
  }),
  tls: z.boolean().default(false),
  /** PEM CA certificates trusted besides Node's own, for servers with a private CA. */
  caCertificate: z
    .string()
    .max(64_000)
    .regex(/-----BEGIN CERTIFICATE-----/, { error: 'must be PEM text (-----BEGIN CERTIFICATE-----)' })
    .optional(),
  /** Where service and message descriptions come from: the server (reflection) or an uploaded protoset. */
  serviceSource: z.enum(grpcServiceSources).default('reflection'),
  /** Pins a protoset version; absent: the latest upload. */
  protosetVersionId: z.string().min(1).max(200).optional(),
  /** Sent with every call; values may use {{ vars.x }}, {{ secrets.x }} and {{ authToken }}. */
  metadata: keyValueListSchema.optional(),
});
export type GrpcConnection = z.infer<typeof grpcConnectionSchema>;

export const grpcActionShape = {
  kind: z.literal('grpc'),
  /** Full service name, e.g. shop.v1.OrderService. */
  service: z
    .string()
    .min(1)
    .max(500)
    .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/, {
      error: 'must be a full service name such as shop.v1.OrderService',
    }),
  /** The method's name within the service, e.g. GetOrder. */
  method: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'must be a method name such as GetOrder' }),
  /** The request message as proto3 JSON; {{ references }} as in HTTP JSON bodies. */
  request: z.string().max(100_000).default('{}'),
};
const grpcActionFields = z.object(grpcActionShape);
export type GrpcActionInput = ActionInput & z.infer<typeof grpcActionFields>;

export function grpcActionTexts(action: GrpcActionInput): [string, string][] {
  return [['#/request', action.request]];
}
