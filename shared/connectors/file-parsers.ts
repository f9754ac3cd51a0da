/**
 * Where a kind's file parser lives: `shared/connectors/<kind>/files.ts`, by convention (see
 * runtimes.ts). Only the functions that keep uploaded files import this module, so a parser's
 * library (gRPC: protobufjs) reaches no other bundle (docs/decisions/0022).
 */
import { DoguError } from '../domain/errors.ts';
import type { FileParserModule } from './connector.ts';

const kindName = /^[a-z][a-z0-9-]{0,40}$/;

export async function loadFileParser(kind: string): Promise<FileParserModule> {
  if (!kindName.test(kind))
    throw new DoguError('data_source_error', `Dogu has no data source kind '${kind}'.`);
  return (await import(`./${kind}/files.ts`)) as FileParserModule;
}
