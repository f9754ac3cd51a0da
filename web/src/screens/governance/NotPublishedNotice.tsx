/**
 * A protected environment runs and shows only published versions (docs/governance.md). When nothing
 * of an action or view is published there, its screen says so — the same thing the API's 409 says —
 * and offers those who may publish (the right `publish_versions`, from their own role or a user group's,
 * as the server decides it) to publish the latest version, after a confirmation. Others are told whom
 * to ask.
 */
import { api } from '../../api/client.ts';
import { useProjectAccess } from '../../app/project-access.ts';
import { useWorkspace } from '../../app/workspace.tsx';
import { Button, Dialog, useConfirmation } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { viewPaths } from '../views/view-api.ts';
import { governancePaths } from './api.ts';

export function NotPublishedNotice(props: {
  kind: 'action' | 'view';
  id: string;
  latestVersion: number;
  onPublished(): void;
  onError(error: unknown): void;
}) {
  const t = useT();
  const workspace = useWorkspace();
  const environment = workspace.environment?.name ?? workspace.environmentId;
  // Undefined while the caller's access loads: neither the button nor "ask someone" yet.
  const mayPublish = useProjectAccess(workspace.projectId).may('publish_versions');
  const publication = useConfirmation(async (version: number) => {
    const path =
      props.kind === 'action'
        ? governancePaths.publication(workspace.projectId, props.id, workspace.environmentId)
        : viewPaths.publication(workspace.projectId, props.id, workspace.environmentId);
    await api.put(path, { version });
    props.onPublished();
  }, props.onError);
  return (
    <div className="notice notice-warning not-published" role="status">
      <strong>{t(`protected.nothingPublished.${props.kind}`, { environment })}</strong>
      <p>{t('protected.onlyPublished', { environment, version: props.latestVersion })}</p>
      {mayPublish === undefined ? null : mayPublish ? (
        <Button variant="primary" onClick={() => publication.ask(props.latestVersion)}>
          {t('protected.publish', { version: props.latestVersion, environment })}
        </Button>
      ) : (
        <p className="muted">{t('protected.askPublisher')}</p>
      )}
      <Dialog
        title={t('governance.versions.confirmPublish', { version: props.latestVersion, environment })}
        {...publication.dialog}
        busy={publication.busy}
        confirmLabel={t('governance.versions.confirm')}
      >
        <p>{t('governance.versions.confirmDetail')}</p>
      </Dialog>
    </div>
  );
}

/** The API's 409 for a protected environment with nothing published: its fields, or undefined. */
export function notPublishedOf(error: unknown): { latestVersion: number } | undefined {
  const body = (error as { body?: Record<string, unknown> } | undefined)?.body;
  if (body?.reason !== 'not_published' || typeof body.latestVersion !== 'number') return undefined;
  return { latestVersion: body.latestVersion };
}
