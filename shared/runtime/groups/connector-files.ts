/**
 * The connector catalog with the kinds' file parsers: for the functions that keep uploaded files
 * (file versions, protoset upload). Like the catalog, it never runs an action (decision 0022).
 */
import type { ActionEngines } from '../../domain/ports.ts';
import type { ServiceGroup } from '../services.ts';
import { connectorCatalog } from './connector-catalog.ts';

export const connectorFiles: ServiceGroup<{ engines: ActionEngines }> = {
  name: 'connector-files',
  pick: (services) => connectorCatalog.pick(services),
  async createOnAws() {
    const [{ createActionEngines }, { loadFileParser }] = await Promise.all([
      import('../../connectors/engines.ts'),
      import('../../connectors/file-parsers.ts'),
    ]);
    return { engines: createActionEngines({ poolSize: 2 }, { loadFileParser }) };
  },
};
