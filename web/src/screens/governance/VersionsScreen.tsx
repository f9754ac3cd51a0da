/**
 * An action's version history: which version each environment runs, publishing a version to an
 * environment (publishing an earlier one is the rollback), following the latest again, and the
 * differences between any two versions.
 */
import { useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import { Link } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import {
  Button,
  Dialog,
  ErrorBanner,
  ListTable,
  useAsync,
  useConfirmation,
  useToast,
  VersionPairPicker,
} from '../../components/index.ts';
import { formatTime } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { type DefinitionChange, governancePaths, type VersionHistory } from './api.ts';
import { DiffView } from './DiffView.tsx';

export function VersionsScreen({ params }: { params: Record<string, string> }) {
  const t = useT();
  const toast = useToast();
  const { language } = useLanguage();
  const workspace = useWorkspace();
  const { projectId } = workspace;
  const actionId = params.actionId!;
  const history = useAsync(
    () => api.get<VersionHistory>(governancePaths.versions(projectId, actionId)),
    [projectId, actionId],
  );
  const [target, setTarget] = useState(workspace.environmentId);
  const [failure, setFailure] = useState<unknown>();
  const [from, setFrom] = useState(0);
  const [to, setTo] = useState(0);

  useEffect(() => {
    const data = history.data;
    if (!data || from) return;
    setTo(data.latest);
    setFrom(Math.max(1, data.latest - 1));
  }, [history.data, from]);

  const diff = useAsync<DefinitionChange[] | undefined>(
    () =>
      from && to && from !== to
        ? api
            .get<{ changes: DefinitionChange[] }>(governancePaths.diff(projectId, actionId, from, to))
            .then((answer) => answer.changes)
        : Promise.resolve(from && from === to ? [] : undefined),
    [projectId, actionId, from, to],
  );

  const publishedTo = (environmentId: string) =>
    history.data?.publications.find((p) => p.environmentId === environmentId)?.version;

  const publication = useConfirmation(async (change: { version: number } | { follow: true }) => {
    setFailure(undefined);
    const path = governancePaths.publication(projectId, actionId, target);
    if ('version' in change) {
      const answer = await api.put<{ previousVersion?: number }>(path, { version: change.version });
      toast(
        t('governance.versions.published', {
          version: change.version,
          environment: target,
          previous: answer.previousVersion ?? t('governance.versions.latestShort'),
        }),
      );
    } else {
      await api.del(path);
      toast(t('governance.versions.followingLatest', { environment: target }));
    }
    history.reload();
  }, setFailure);
  const confirm = publication.subject;

  const environmentName = (id: string) => workspace.environments.find((e) => e.id === id)?.name ?? id;
  const data = history.data;
  const current = publishedTo(target);
  const isProtected = (id: string) => Boolean(workspace.environments.find((e) => e.id === id)?.protected);
  return (
    <section className="screen" aria-labelledby="versions-title">
      <Link href={workspace.href(`/actions/${encodeURIComponent(actionId)}`)} className="back-link">
        ← {actionId}
      </Link>
      <h1 id="versions-title">{t('governance.versions.title', { action: actionId })}</h1>
      <ErrorBanner
        error={history.error ?? failure}
        onDismiss={failure ? () => setFailure(undefined) : undefined}
      />
      {data ? (
        <>
          <h2 className="section-title">{t('governance.versions.publications')}</h2>
          <ListTable
            label={t('governance.versions.publications')}
            columns={[t('governance.versions.environment'), t('governance.versions.runs')]}
            items={
              workspace.environments.length
                ? workspace.environments.map((e) => e.id)
                : [workspace.environmentId]
            }
            className="publications"
            row={(id) => {
              const version = publishedTo(id);
              return (
                <tr key={id} data-environment={id}>
                  <td>
                    {environmentName(id)}
                    {isProtected(id) ? <span className="state-badge"> {t('protected.badge')}</span> : null}
                  </td>
                  <td>
                    {version
                      ? t('governance.versions.publishedVersion', { version })
                      : isProtected(id)
                        ? t('governance.versions.nothingRuns')
                        : t('governance.versions.followsLatest', { version: data.latest })}
                  </td>
                </tr>
              );
            }}
          />

          <div className="inline-fields">
            <label className="inline-field">
              <span>{t('governance.versions.publishTo')}</span>
              <select value={target} onChange={(event) => setTarget(event.target.value)}>
                {(workspace.environments.length
                  ? workspace.environments
                  : [{ id: workspace.environmentId, name: workspace.environmentId }]
                ).map((environment) => (
                  <option key={environment.id} value={environment.id}>
                    {environment.name}
                  </option>
                ))}
              </select>
            </label>
            {/* A protected environment never follows the latest: it runs what was published. */}
            {isProtected(target) ? null : (
              <Button disabled={current === undefined} onClick={() => publication.ask({ follow: true })}>
                {t('governance.versions.followLatest')}
              </Button>
            )}
          </div>

          <h2 className="section-title">{t('governance.versions.history')}</h2>
          <ListTable
            label={t('governance.versions.history')}
            columns={[
              t('governance.versions.version'),
              t('governance.versions.author'),
              t('governance.versions.savedAt'),
              t('governance.versions.message'),
            ]}
            rowActions
            items={data.versions}
            className="versions"
            row={(version) => {
              // Any version can be published, the first and the latest included: following the latest
              // is not the same as having it published (a protected environment runs only the latter).
              const isCurrent = current === version.version;
              const followed =
                current === undefined && !isProtected(target) && version.version === data.latest;
              return (
                <tr key={version.version} data-version={version.version}>
                  <td>
                    v{version.version}
                    {version.version === data.latest ? (
                      <span className="state-badge"> {t('governance.versions.latest')}</span>
                    ) : null}
                  </td>
                  <td>{version.author.email}</td>
                  <td>{formatTime(version.createdAt, language)}</td>
                  <td>{version.message || <span className="muted">—</span>}</td>
                  <td>
                    {followed ? (
                      <span className="muted small">
                        {t('governance.versions.runsHere', { environment: environmentName(target) })}{' '}
                      </span>
                    ) : null}
                    {isCurrent ? (
                      <span className="muted small">
                        {t('governance.versions.runsHere', { environment: environmentName(target) })}
                      </span>
                    ) : (
                      <Button
                        className="btn-small"
                        onClick={() => publication.ask({ version: version.version })}
                      >
                        {current !== undefined && version.version < current
                          ? t('governance.versions.rollbackTo', { version: version.version })
                          : t('governance.versions.publish', { version: version.version })}
                      </Button>
                    )}
                  </td>
                </tr>
              );
            }}
          />

          <h2 className="section-title">{t('governance.diff.compare')}</h2>
          <VersionPairPicker
            versions={data.versions}
            from={from}
            to={to}
            onFrom={setFrom}
            onTo={setTo}
            labels={{ from: t('governance.diff.from'), to: t('governance.diff.to') }}
          />
          <ErrorBanner error={diff.error} />
          {diff.data ? <DiffView changes={diff.data} from={from} to={to} /> : null}
        </>
      ) : history.loading ? (
        <p className="muted">{t('common.loading')}</p>
      ) : null}
      <Dialog
        title={
          confirm && 'version' in confirm
            ? t('governance.versions.confirmPublish', {
                version: confirm.version,
                environment: environmentName(target),
              })
            : t('governance.versions.confirmFollow', { environment: environmentName(target) })
        }
        {...publication.dialog}
        busy={publication.busy}
        confirmLabel={t('governance.versions.confirm')}
      >
        <p>{t('governance.versions.confirmDetail')}</p>
      </Dialog>
    </section>
  );
}
