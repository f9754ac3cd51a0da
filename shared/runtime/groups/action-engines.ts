/**
 * The engines that run actions: each kind's runtime (its driver or SDK) is a chunk of its own,
 * loaded on the first run of that kind. Only the functions that run actions or test connections
 * compose this group (docs/decisions/0022).
 */
import type { ActionEngines } from '../../domain/ports.ts';
import type { ServiceGroup } from '../services.ts';

export const actionEngines: ServiceGroup<{ engines: ActionEngines }> = {
  name: 'action-engines',
  pick: ({ engines }) => ({ engines }),
  async createOnAws() {
    const [{ createActionEngines }, { loadConnectorRuntime }] = await Promise.all([
      import('../../connectors/engines.ts'),
      import('../../connectors/runtimes.ts'),
    ]);
    // A Lambda container serves one request at a time: a small pool per data source is enough.
    return { engines: createActionEngines({ poolSize: 2 }, { loadRuntime: loadConnectorRuntime }) };
  },
};
