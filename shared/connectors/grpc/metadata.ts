/**
 * The common metadata of a data source: keys literal, values templated with {{ vars.x }},
 * {{ secrets.x }} and {{ authToken }}. Errors name the key, never the value (it may be a secret).
 */
import * as grpc from '@grpc/grpc-js';
import type { KeyValue } from '../../domain/definitions/data-source.ts';
import { DoguError } from '../../domain/errors.ts';
import { valueAsText } from '../../domain/json-template.ts';

const reference = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}/g;
const keyPattern = /^[0-9a-z_.-]+$/;
/** Printable ASCII: what an ASCII metadata value can carry. */
const valuePattern = /^[\x20-\x7e]*$/;

export function renderMetadata(pairs: readonly KeyValue[], resolve: (ref: string) => unknown): grpc.Metadata {
  const metadata = new grpc.Metadata();
  for (const { key, value } of pairs) {
    const name = key.trim().toLowerCase();
    if (!keyPattern.test(name) || name.endsWith('-bin') || name.startsWith('grpc-')) {
      throw new DoguError(
        'invalid_definition',
        `The metadata key '${key}' is not allowed: use lower-case letters, digits, '-', '_' and '.', not the grpc- prefix or a -bin suffix.`,
      );
    }
    const text = value.replace(reference, (_m, ref: string) => valueAsText(resolve(ref)));
    if (!valuePattern.test(text)) {
      throw new DoguError(
        'invalid_definition',
        `The value of metadata '${name}' holds characters gRPC metadata cannot carry (printable ASCII only).`,
      );
    }
    metadata.add(name, text);
  }
  return metadata;
}

/** Metadata without templates, for connection tests and the method catalog (no run, no values). */
export function literalMetadata(pairs: readonly KeyValue[]): grpc.Metadata {
  return renderMetadata(
    pairs.filter((p) => !/\{\{/.test(p.value)),
    () => '',
  );
}
