/**
 * The data-source kinds as definitions only: forms, secret fields, validation, references. For the
 * functions that manage definitions; running an action or testing a connection is refused here, so
 * no driver or SDK of a kind reaches these functions (docs/decisions/0022).
 */
import { DoguError } from '../../domain/errors.ts';
import type { ActionEngines } from '../../domain/ports.ts';
import type { ServiceGroup } from '../services.ts';

const noRuntimes = () =>
  Promise.reject(
    new DoguError('internal_error', 'This function does not run actions (it has no connector runtimes).'),
  );

export const connectorCatalog: ServiceGroup<{ engines: ActionEngines }> = {
  name: 'connector-catalog',
  // The embedded runtime's engines can run; this view of them cannot, as on AWS.
  pick: ({ engines }) => ({
    engines: { ...engines, run: noRuntimes, testConnection: noRuntimes, close: async () => {} },
  }),
  async createOnAws() {
    const { createActionEngines } = await import('../../connectors/engines.ts');
    return { engines: createActionEngines({ poolSize: 2 }) };
  },
};
