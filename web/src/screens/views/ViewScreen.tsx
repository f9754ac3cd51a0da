/**
 * A view as its viewers see it (route `/views/:viewId?<arguments>`): the version this environment
 * shows, a visual layout or a code view's frame, with its arguments taken from the URL. The
 * arguments can be changed in the header form (a view opened without a needed argument says
 * which one in the component that needed it).
 */
import { type FormEvent, useMemo, useState } from 'react';
import { api } from '../../api/client.ts';
import type { Parameter } from '../../api/types.ts';
import { Link, navigate, useRoute } from '../../app/router.tsx';
import { useSession } from '../../app/session.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import { Button, ErrorBanner, useAsync } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { NotPublishedNotice, notPublishedOf } from '../governance/NotPublishedNotice.tsx';
import { CodeViewFrame } from './code/CodeViewFrame.tsx';
import { ConfirmRunProvider } from './runtime/confirm-run.tsx';
import { OutsideHostsProvider } from './runtime/outside-hosts.tsx';
import { ViewRenderer } from './runtime/ViewRenderer.tsx';
import { type ResolvedView, viewPaths } from './view-api.ts';
import { argsFromQuery } from './view-args.ts';
import './views.css';

/** A view whose answer carries no allow-list: nothing outside is allowed. */
const noHosts: string[] = [];

export function ViewScreen({ params }: { params: Record<string, string> }) {
  const t = useT();
  const workspace = useWorkspace();
  const viewId = params.viewId!;
  const loaded = useAsync(
    () => api.get<ResolvedView>(viewPaths.resolved(workspace.projectId, workspace.environmentId, viewId)),
    [workspace.projectId, workspace.environmentId, viewId],
  );
  const [failure, setFailure] = useState<unknown>();
  const unpublished = notPublishedOf(loaded.error);
  return (
    // Not a named region: a view's own parts may carry its name (a table called like the view).
    <section className="screen view-screen">
      <Link href={workspace.href('/views')} className="back-link">
        ← {t('views.back')}
      </Link>
      {unpublished ? (
        <NotPublishedNotice
          kind="view"
          id={viewId}
          latestVersion={unpublished.latestVersion}
          onPublished={loaded.reload}
          onError={setFailure}
        />
      ) : loaded.error ? (
        <ErrorBanner error={loaded.error} />
      ) : null}
      <ErrorBanner error={failure} onDismiss={failure ? () => setFailure(undefined) : undefined} />
      {!loaded.data && !loaded.error ? <p className="muted">{t('common.loading')}</p> : null}
      {loaded.data ? (
        <ConfirmRunProvider environmentName={workspace.environment?.name ?? workspace.environmentId}>
          <OutsideHostsProvider hosts={loaded.data.allowedHosts ?? noHosts}>
            <LoadedView resolved={loaded.data} />
          </OutsideHostsProvider>
        </ConfirmRunProvider>
      ) : null}
    </section>
  );
}

function LoadedView({ resolved }: { resolved: ResolvedView }) {
  const t = useT();
  const workspace = useWorkspace();
  const { user } = useSession();
  const { query } = useRoute();
  const parameters = (resolved.definition.parameters ?? []) as unknown as Parameter[];
  const search = query.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `search` stands for the query's content
  const args = useMemo(() => argsFromQuery(parameters, query), [parameters, search]);
  const viewer = useMemo(() => ({ id: user.id, email: user.email, name: user.name }), [user]);
  return (
    <>
      <div className="screen-header">
        <div>
          <h1 id="view-title">{resolved.view.name}</h1>
          <div className="action-meta">
            <span className={`kind-badge kind-view-${resolved.definition.kind}`}>
              {t(`views.kind.${resolved.definition.kind}`)}
            </span>
            <span className="mono muted">{resolved.view.id}</span>
            <span className="muted">
              {resolved.published
                ? t('views.publishedVersion', { version: resolved.version })
                : t('views.latestVersion', { version: resolved.version })}
            </span>
          </div>
          {resolved.view.description ? (
            <p className="action-description">{resolved.view.description}</p>
          ) : null}
        </div>
        <div className="view-screen-links">
          <Link
            className="btn btn-secondary"
            href={workspace.href(`/views/${encodeURIComponent(resolved.view.id)}/versions`)}
          >
            {t('views.versions.link')}
          </Link>
          <Link
            className="btn btn-secondary"
            href={workspace.href(`/views/${encodeURIComponent(resolved.view.id)}/edit`)}
          >
            {t('views.edit')}
          </Link>
        </div>
      </div>
      {parameters.length > 0 ? <ArgumentsBar parameters={parameters} args={args} /> : null}
      {resolved.definition.kind === 'visual' ? (
        <ViewRenderer
          viewId={resolved.view.id}
          definition={resolved.definition}
          args={args}
          user={viewer}
          projectId={workspace.projectId}
          environmentId={workspace.environmentId}
          href={workspace.href}
        />
      ) : resolved.compiled ? (
        <CodeViewFrame
          viewId={resolved.view.id}
          code={resolved.compiled.code}
          actionIds={resolved.definition.actionIds}
          args={args}
          user={viewer}
          projectId={workspace.projectId}
          environmentId={workspace.environmentId}
          href={workspace.href}
        />
      ) : (
        <p className="muted">{t('views.code.notCompiled')}</p>
      )}
    </>
  );
}

/** The view's arguments as inputs; Apply puts them in the URL (so links and reloads keep them). */
function ArgumentsBar({ parameters, args }: { parameters: Parameter[]; args: Record<string, unknown> }) {
  const t = useT();
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const shownValue = (name: string) =>
    drafts[name] ??
    (args[name] === undefined
      ? ''
      : typeof args[name] === 'object'
        ? JSON.stringify(args[name])
        : String(args[name]));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const query = new URLSearchParams();
    for (const p of parameters) {
      const value = shownValue(p.name);
      if (value !== '') query.set(p.name, value);
    }
    setDrafts({});
    navigate(`${window.location.pathname}${query.size ? `?${query}` : ''}`);
  };
  return (
    <form className="view-args" onSubmit={apply} aria-label={t('views.arguments')}>
      {parameters.map((p) => (
        <label key={p.name} className="view-arg">
          <span>{p.label ?? p.name}</span>
          <input
            value={shownValue(p.name)}
            onChange={(e) => setDrafts({ ...drafts, [p.name]: e.target.value })}
          />
        </label>
      ))}
      <Button type="submit">{t('views.applyArguments')}</Button>
    </form>
  );
}
