/**
 * Drafts and secrets (decision 0026). An environment runs the version published to it, or the latest
 * version when nothing is published there. A version that is not published to the environment it runs
 * in — a draft there — and whose own text reads secrets runs only if its author may manage secrets:
 * otherwise anyone who may edit actions could read any environment's secrets by saving
 * `SELECT {{ secrets.x }}` and running it. Publishing (right `publish_versions`) is the review that lets it run.
 */
import { DoguError } from './errors.ts';
import { resolveMembership } from './manage/resolve-membership.ts';
import type { Action } from './model.ts';
import type { ActionEngines, Store } from './ports.ts';
import { rightsOfRole } from './rights.ts';

export async function refuseUnpublishedSecretReads(
  deps: { store: Store; engines: Pick<ActionEngines, 'references'> },
  action: Action,
  environmentId: string,
): Promise<void> {
  // The action's own texts only: secrets in the data source's settings were put there by whoever may manage it.
  const secrets = [...deps.engines.references(action)].filter((r) => r.startsWith('secrets.'));
  if (secrets.length === 0) return;
  const publication = await deps.store.actionVersions.getPublication(
    action.projectId,
    action.id,
    environmentId,
  );
  if (publication?.version === action.version) return;
  const author =
    action.updatedBy ??
    (await deps.store.actionVersions.getVersion(action.projectId, action.id, action.version))?.author;
  if (author && (await maySeeSecrets(deps.store, action.projectId, author.id))) return;
  const read = secrets.map((s) => `{{ ${s} }}`).join(', ');
  throw new DoguError(
    'state_conflict',
    `Version ${action.version} of action '${action.id}' reads ${read} but is not published to ` +
      `environment '${environmentId}', and its author (${author?.email ?? 'unknown'}) may not manage secrets. ` +
      `It runs there once someone with the right 'publish_versions' publishes it to '${environmentId}'.`,
    { extra: { unpublishedVersion: action.version, environmentId } },
  );
}

async function maySeeSecrets(store: Store, projectId: string, principalId: string): Promise<boolean> {
  const membership = await resolveMembership(store, projectId, principalId);
  if (!membership) return false;
  return (membership.roles ?? [membership.role]).some((role) => rightsOfRole[role].has('manage_secrets'));
}
