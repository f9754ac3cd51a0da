/**
 * The definition an environment runs: the version published to it, else the latest (the same
 * rule the execute call applies, docs/governance.md), plus master data lists its choices name.
 */
import { api } from '../../api/client.ts';
import { apiPaths } from '../../api/paths.ts';
import type { ActionDefinition, ActionVersions, Choice, ListOf, MasterDataList } from '../../api/types.ts';
import { editorPaths } from '../editors/api.ts';
import { loadConnectorKinds } from '../editors/connector-kinds.ts';

export interface LoadedAction {
  action: ActionDefinition;
  /** The version this environment runs; undefined when it follows the latest. */
  publishedVersion: number | undefined;
  latestVersion: number | undefined;
  masterData: Record<string, Choice[]>;
  /** The data source's kind can estimate a run (BigQuery): the screen offers a dry run. */
  dryRun: boolean;
  /** The kind can run the statements in a rolled-back transaction: a changing action offers Preview. */
  preview: boolean;
}

export async function loadAction(
  projectId: string,
  environmentId: string,
  actionId: string,
): Promise<LoadedAction> {
  const [head, versions] = await Promise.all([
    api.get<ActionDefinition>(apiPaths.action(projectId, actionId)),
    api.get<ActionVersions>(apiPaths.actionVersions(projectId, actionId)).catch(() => undefined),
  ]);
  const publication = versions?.publications.find((p) => p.environmentId === environmentId);
  const published = publication
    ? versions?.versions.find((v) => v.version === publication.version)?.definition
    : undefined;
  const action = published ?? head;
  const masterData: Record<string, Choice[]> = {};
  if (action.parameters.some((p) => 'masterData' in p && p.masterData)) {
    const lists = await api.get<ListOf<MasterDataList>>(apiPaths.masterData(projectId));
    for (const list of lists.data) masterData[list.id] = list.entries;
  }
  const features = await kindFeatures(projectId, action.dataSourceId);
  return {
    action,
    ...features,
    publishedVersion: publication?.version,
    latestVersion: versions?.latest ?? head.version,
    masterData,
  };
}

/** False when the caller may not read the data source or the kinds: the buttons are then left out. */
async function kindFeatures(projectId: string, dataSourceId: string) {
  const [source, kinds] = await Promise.all([
    api.get<{ kind: string }>(editorPaths.dataSource(projectId, dataSourceId)).catch(() => undefined),
    loadConnectorKinds().catch(() => undefined),
  ]);
  const kind = source ? kinds?.data.find((k) => k.kind === source.kind) : undefined;
  return { dryRun: Boolean(kind?.dryRun), preview: Boolean(kind?.preview) };
}
