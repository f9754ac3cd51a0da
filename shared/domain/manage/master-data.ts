/** Master data lists: values with labels that parameters offer as choices. */
import type { MasterDataInput, MasterDataList } from '../definitions/master-data.ts';
import { DoguError, notFound } from '../errors.ts';
import type { Principal } from '../model.ts';
import { authorize } from './access.ts';
import type { ManageDeps } from './data-sources.ts';

/** Definitions only: neither secret values nor connector engines (docs/decisions/0022). */
type DefinitionDeps = Pick<ManageDeps, 'store' | 'clock'>;

export async function putMasterData(
  deps: DefinitionDeps,
  principal: Principal,
  projectId: string,
  input: MasterDataInput,
) {
  await authorize(deps.store, principal, projectId, 'edit_actions');
  const values = new Set(input.entries.map((e) => e.value));
  if (values.size !== input.entries.length) {
    throw new DoguError('invalid_definition', 'Each value may appear only once in a master data list.', {
      errors: [{ pointer: '#/entries', detail: 'has a value twice' }],
    });
  }
  const existed = (await deps.store.getMasterData(projectId, input.id)) !== undefined;
  const list: MasterDataList = { ...input, projectId, updatedAt: deps.clock.now().toISOString() };
  await deps.store.putMasterData(list);
  return { list, created: !existed };
}

export async function getMasterData(
  deps: DefinitionDeps,
  principal: Principal,
  projectId: string,
  id: string,
) {
  await authorize(deps.store, principal, projectId, 'view');
  const list = await deps.store.getMasterData(projectId, id);
  if (!list) throw notFound('Master data', id);
  return list;
}

export async function listMasterData(deps: DefinitionDeps, principal: Principal, projectId: string) {
  await authorize(deps.store, principal, projectId, 'view');
  return deps.store.listMasterData(projectId);
}

export async function deleteMasterData(
  deps: DefinitionDeps,
  principal: Principal,
  projectId: string,
  id: string,
) {
  await authorize(deps.store, principal, projectId, 'edit_actions');
  const users = (await deps.store.listActions(projectId))
    .filter((a) => a.parameters.some((p) => 'masterData' in p && p.masterData === id))
    .map((a) => a.id);
  if (users.length > 0) {
    throw new DoguError('state_conflict', `Master data '${id}' is used by actions ${users.join(', ')}.`, {
      extra: { actions: users },
    });
  }
  if (!(await deps.store.deleteMasterData(projectId, id))) throw notFound('Master data', id);
}
