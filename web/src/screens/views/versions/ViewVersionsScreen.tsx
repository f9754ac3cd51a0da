/**
 * A view's version history (route `/views/:viewId/versions`): every saved version (who, when, its
 * message, where it is published), a line diff of any two versions' definitions, and rollback —
 * saving an earlier version again as a new version (the history keeps what happened; decision 0209).
 * Which version each environment shows is published from the builder or the view's notice.
 */
import { useEffect, useState } from 'react';
import { api } from '../../../api/client.ts';
import { Link } from '../../../app/router.tsx';
import { useWorkspace } from '../../../app/workspace.tsx';
import {
  Button,
  Dialog,
  ErrorBanner,
  ListTable,
  useAsync,
  useConfirmation,
  useToast,
  VersionPairPicker,
} from '../../../components/index.ts';
import { formatTime } from '../../../i18n/format-time.ts';
import { useLanguage, useT } from '../../../i18n/index.tsx';
import { type ViewHead, type ViewVersion, type ViewVersions, viewPaths } from '../view-api.ts';
import { VersionDiff } from './VersionDiff.tsx';

export function ViewVersionsScreen({ params }: { params: Record<string, string> }) {
  const t = useT();
  const toast = useToast();
  const { language } = useLanguage();
  const workspace = useWorkspace();
  const { projectId } = workspace;
  const viewId = params.viewId!;
  const history = useAsync(
    () => api.get<ViewVersions>(viewPaths.versions(projectId, viewId)),
    [projectId, viewId],
  );
  const [failure, setFailure] = useState<unknown>();
  const [from, setFrom] = useState(0);
  const [to, setTo] = useState(0);

  useEffect(() => {
    const data = history.data;
    if (!data || from) return;
    setTo(data.latest);
    setFrom(Math.max(1, data.latest - 1));
  }, [history.data, from]);

  const pair = useAsync<[ViewVersion, ViewVersion] | undefined>(
    () =>
      from && to
        ? Promise.all([
            api.get<ViewVersion>(viewPaths.version(projectId, viewId, from)),
            api.get<ViewVersion>(viewPaths.version(projectId, viewId, to)),
          ])
        : Promise.resolve(undefined),
    [projectId, viewId, from, to],
  );

  const rollback = useConfirmation(async (version: number) => {
    setFailure(undefined);
    const chosen = await api.get<ViewVersion>(viewPaths.version(projectId, viewId, version));
    const saved = await api.put<ViewHead>(viewPaths.view(projectId, viewId), {
      ...chosen.definition,
      id: viewId,
      changeMessage: t('views.versions.rollbackMessage', { version }),
    });
    toast(t('views.versions.rolledBack', { version, saved: saved.version }));
    setFrom(version);
    setTo(saved.version);
    history.reload();
  }, setFailure);

  const environmentName = (id: string) => workspace.environments.find((e) => e.id === id)?.name ?? id;
  const data = history.data;
  const publishedIn = (version: number) =>
    (data?.publications ?? [])
      .filter((p) => p.version === version)
      .map((p) => environmentName(p.environmentId));
  return (
    <section className="screen view-versions" aria-labelledby="view-versions-title">
      <Link href={workspace.href(`/views/${encodeURIComponent(viewId)}`)} className="back-link">
        ← {viewId}
      </Link>
      <h1 id="view-versions-title">{t('views.versions.title', { view: viewId })}</h1>
      <ErrorBanner
        error={history.error ?? failure}
        onDismiss={failure ? () => setFailure(undefined) : undefined}
      />
      {data ? (
        <>
          <ListTable
            label={t('views.versions.history')}
            columns={[
              t('views.versions.version'),
              t('views.versions.author'),
              t('views.versions.savedAt'),
              t('views.versions.message'),
              t('views.versions.publishedIn'),
            ]}
            rowActions
            items={data.versions}
            className="versions"
            row={(version) => {
              const places = publishedIn(version.version);
              return (
                <tr key={version.version} data-version={version.version}>
                  <td>
                    v{version.version}
                    {version.version === data.latest ? (
                      <span className="state-badge"> {t('views.versions.latest')}</span>
                    ) : null}
                  </td>
                  <td>{version.author?.email ?? '—'}</td>
                  <td>{version.createdAt ? formatTime(version.createdAt, language) : '—'}</td>
                  <td>{version.message || <span className="muted">—</span>}</td>
                  <td>{places.length ? places.join(', ') : <span className="muted">—</span>}</td>
                  <td>
                    {version.version === data.latest ? null : (
                      <Button className="btn-small" onClick={() => rollback.ask(version.version)}>
                        {t('views.versions.rollbackTo', { version: version.version })}
                      </Button>
                    )}
                  </td>
                </tr>
              );
            }}
          />

          <h2 className="section-title">{t('views.versions.compare')}</h2>
          <VersionPairPicker
            versions={data.versions}
            from={from}
            to={to}
            onFrom={setFrom}
            onTo={setTo}
            labels={{ from: t('views.versions.from'), to: t('views.versions.to') }}
          />
          <ErrorBanner error={pair.error} />
          {pair.data ? <VersionDiff before={pair.data[0]} after={pair.data[1]} /> : null}
        </>
      ) : history.loading ? (
        <p className="muted">{t('common.loading')}</p>
      ) : null}
      <Dialog
        title={t('views.versions.confirmRollback', { version: rollback.subject ?? 0 })}
        {...rollback.dialog}
        busy={rollback.busy}
        confirmLabel={t('views.versions.confirm')}
      >
        <p>{t('views.versions.confirmDetail', { version: rollback.subject ?? 0 })}</p>
      </Dialog>
    </section>
  );
}
