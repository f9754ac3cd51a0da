/**
 * Bridges registered in a project's settings (docs/bridge.md): agents the customer runs next to
 * private data. A data source environment names one with `via: <bridge id>`. Kept on the project
 * record (a handful per project; decision 0115): no table or index of their own.
 */
import { X509Certificate } from 'node:crypto';
import * as z from 'zod';
import { resourceIdSchema } from '../definitions/data-source.ts';

/** A project needs few bridges (one per private network); the record stays small. */
export const maxBridgesPerProject = 20;

const pemCertificate = z
  .string()
  .max(16_000)
  .refine(
    (text) => {
      try {
        new X509Certificate(text);
        return /-----BEGIN CERTIFICATE-----/.test(text);
      } catch {
        return false;
      }
    },
    { message: 'must be a PEM certificate (-----BEGIN CERTIFICATE-----)' },
  );

export const bridgeInputSchema = z.strictObject({
  name: z.string().min(1).max(200).optional(),
  /** Where the bridge listens; only https (the bridge's own TLS, pinned below). */
  url: z.url({ protocol: /^https$/, error: 'must be an https URL, e.g. https://bridge.example.com:8443' }),
  /**
   * What Dogu trusts for the bridge's TLS: its own certificate or its CA, nothing else. Two during
   * a rotation (old and new), then the new one alone.
   */
  certificates: z.array(pemCertificate).min(1).max(3),
});
export type BridgeInput = z.infer<typeof bridgeInputSchema>;

export interface BridgeRegistration extends BridgeInput {
  id: string;
  createdAt: string;
  updatedAt: string;
  /** When the pinned certificates last changed. */
  rotatedAt?: string;
  /** What the bridge last said about itself (a run, a test connection). */
  lastContactAt?: string;
  version?: string;
  timeoutMs?: number;
}

export const bridgeIdSchema = resourceIdSchema;

/** A certificate as people compare it with `openssl x509 -fingerprint -sha256`. */
export const fingerprintOf = (pem: string) => new X509Certificate(pem).fingerprint256;
