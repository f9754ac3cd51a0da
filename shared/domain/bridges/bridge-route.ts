/**
 * The route of a run or connection check whose environment names a bridge (`via`): the
 * registration from the project's settings and per-connection tokens of Dogu's own IdP.
 */
import { DoguError } from '../errors.ts';
import { issueBridgeToken } from '../identity/bridge-token.ts';
import type { OwnIdp } from '../identity/own-idp.ts';
import type { DataSource } from '../model.ts';
import type { BridgeRoute, Clock, Store } from '../ports.ts';
import { recordBridgeContact } from './manage-bridges.ts';

export interface BridgeRouteDeps {
  store: Store;
  clock: Clock;
  idp?: OwnIdp;
}

/** The bridge named by an environment's connection, or undefined for a direct connection. */
export async function bridgeRouteFor(
  deps: BridgeRouteDeps,
  dataSource: Pick<DataSource, 'projectId' | 'id'>,
  environmentId: string,
  connection: Record<string, unknown>,
): Promise<BridgeRoute | undefined> {
  const via = connection.via;
  if (typeof via !== 'string' || via === '') return undefined;
  const project = await deps.store.getProject(dataSource.projectId);
  const bridge = project?.bridges?.find((b) => b.id === via);
  if (!bridge) {
    throw new DoguError(
      'data_source_error',
      `Data source '${dataSource.id}' goes through bridge '${via}' in environment '${environmentId}', but no bridge '${via}' is registered in the project's settings.`,
    );
  }
  const idp = deps.idp;
  if (!idp) {
    throw new DoguError('internal_error', 'This function cannot sign bridge tokens (it has no IdP).');
  }
  return {
    id: bridge.id,
    url: bridge.url,
    certificates: bridge.certificates,
    token: (target) =>
      issueBridgeToken(
        {
          bridgeId: bridge.id,
          projectId: dataSource.projectId,
          environmentId,
          dataSourceId: dataSource.id,
          target,
        },
        idp,
      ),
    contacted: (contact) => {
      void recordBridgeContact(deps, dataSource.projectId, bridge.id, contact).catch(() => {});
    },
  };
}
