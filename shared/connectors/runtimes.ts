/**
 * Where each kind's runtime lives: `shared/connectors/<kind>/runtime.ts`, by convention, so adding a
 * kind still takes one registry line. Only the composition of the functions that run actions
 * imports this module; the bundler makes every runtime (with its driver or SDK) a chunk of its own
 * that is loaded on the first run of that kind (docs/decisions/0022).
 */
import { DoguError } from '../domain/errors.ts';
import type { ConnectorRuntimeModule, RuntimeLoader } from './connector.ts';

const kindName = /^[a-z][a-z0-9-]{0,40}$/;

export const loadConnectorRuntime: RuntimeLoader = async (kind) => {
  // The engines only ask for registered kinds; the check keeps the path a plain folder name.
  if (!kindName.test(kind))
    throw new DoguError('data_source_error', `Dogu has no data source kind '${kind}'.`);
  return (await import(`./${kind}/runtime.ts`)) as ConnectorRuntimeModule;
};
