/**
 * The frame around every project screen: header with project and environment switchers, the
 * language switch and the user menu; side navigation from the screen registry; the screen.
 */
import { type ReactNode, useEffect, useMemo } from 'react';
import { api } from '../api/client.ts';
import { apiPaths } from '../api/paths.ts';
import type { Environment, ListOf, Project } from '../api/types.ts';
import { DisclosureMenu, ErrorBanner, useAsync } from '../components/index.ts';
import { useT } from '../i18n/index.tsx';
import type { Screen } from '../screens/screen.ts';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { Link, navigate, useRoute } from './router.tsx';
import { useSession } from './session.tsx';
import { rememberWorkspace, type Workspace, WorkspaceProvider, workspaceHref } from './workspace.tsx';

export function Shell({
  projectId,
  environmentId,
  screens,
  children,
}: {
  projectId: string;
  environmentId: string;
  screens: Screen[];
  children: ReactNode;
}) {
  const t = useT();
  const { path } = useRoute();
  const projects = useAsync(() => api.get<ListOf<Project>>(apiPaths.projects), []);
  const environments = useAsync(
    () => api.get<ListOf<Environment>>(apiPaths.environments(projectId)),
    [projectId],
  );

  useEffect(() => rememberWorkspace(projectId, environmentId), [projectId, environmentId]);

  const workspace = useMemo<Workspace>(() => {
    const projectList = projects.data?.data ?? [];
    const environmentList = environments.data?.data ?? [];
    return {
      projectId,
      environmentId,
      projects: projectList,
      environments: environmentList,
      project: projectList.find((p) => p.id === projectId),
      environment: environmentList.find((e) => e.id === environmentId),
      href: (rest: string) => workspaceHref(projectId, environmentId, rest),
      reloadEnvironments: environments.reload,
    };
  }, [projects.data, environments.data, environments.reload, projectId, environmentId]);

  const nav = screens
    .filter((screen): screen is Screen & { nav: NonNullable<Screen['nav']> } => Boolean(screen.nav))
    .sort((a, b) => a.nav.order - b.nav.order);
  const prefix = workspaceHref(projectId, environmentId);
  const activeNav = nav
    .map((screen) => ({ screen, href: prefix + screen.path.replace('/p/:projectId/e/:environmentId', '') }))
    .filter(({ href }) => path === href || path.startsWith(`${href}/`))
    .sort((a, b) => b.href.length - a.href.length)[0];

  // A project's environments differ: /p/<project> picks one (app/Home.tsx).
  const switchProject = (next: string) => navigate(`/p/${encodeURIComponent(next)}`);
  // The environment keeps the current screen: /p/demo/e/development/actions → /p/demo/e/production/actions.
  const switchEnvironment = (next: string) =>
    navigate(workspaceHref(projectId, next) + path.slice(prefix.length));

  return (
    <WorkspaceProvider value={workspace}>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <header className="app-header">
        <Link href={`${prefix}/actions`} className="brand">
          <span className="brand-mark" aria-hidden="true">
            D
          </span>
          <span className="brand-name">{t('app.name')}</span>
        </Link>
        <label className="switcher">
          <span className="switcher-label">{t('app.project')}</span>
          <select value={projectId} onChange={(event) => switchProject(event.target.value)}>
            {workspace.project ? null : <option value={projectId}>{projectId}</option>}
            {workspace.projects.map((project) => (
              <option key={project.id} value={project.id}>
                {project.name}
              </option>
            ))}
          </select>
        </label>
        <label className="switcher">
          <span className="switcher-label">{t('app.environment')}</span>
          <select
            value={environmentId}
            onChange={(event) => switchEnvironment(event.target.value)}
            data-environment={environmentId}
          >
            {workspace.environment ? null : <option value={environmentId}>{environmentId}</option>}
            {workspace.environments.map((environment) => (
              <option key={environment.id} value={environment.id}>
                {environment.name}
              </option>
            ))}
          </select>
        </label>
        <div className="header-spacer" />
        <LanguageSwitch />
        <UserMenu />
      </header>
      <div className="app-body">
        <nav className="side-nav" aria-label={t('app.navigation')}>
          <ul>
            {nav.map((screen) => {
              const href = prefix + screen.path.replace('/p/:projectId/e/:environmentId', '');
              const current = activeNav?.screen === screen;
              return (
                <li key={screen.path}>
                  <Link
                    href={href}
                    aria-current={current ? 'page' : undefined}
                    className={current ? 'active' : ''}
                  >
                    {t(screen.nav.labelKey)}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <main id="main" className="app-main" tabIndex={-1}>
          {projects.error || environments.error ? (
            <ErrorBanner error={projects.error ?? environments.error} />
          ) : null}
          {children}
        </main>
      </div>
    </WorkspaceProvider>
  );
}

function UserMenu() {
  const t = useT();
  const { user, signOut } = useSession();
  return (
    <DisclosureMenu
      className="user-menu"
      panelClassName="user-menu-panel"
      summary={
        <>
          <span className="avatar" aria-hidden="true">
            {(user.name ?? user.email ?? '?').slice(0, 1).toUpperCase()}
          </span>
          {/* The visible name is the button's name (WCAG 2.5.3); the hidden words say what it opens. */}
          <span className="visually-hidden">{t('app.userMenu')}: </span>
          <span className="user-name">{user.name ?? user.email ?? user.id}</span>
        </>
      }
    >
      <div className="muted small">{user.email}</div>
      <Link href="/account" className="btn btn-quiet">
        {t('accounts.menu.account')}
      </Link>
      <Link href="/admin/users" className="btn btn-quiet">
        {t('accounts.menu.users')}
      </Link>
      <button type="button" className="btn btn-quiet" onClick={() => void signOut()}>
        {t('app.signOut')}
      </button>
    </DisclosureMenu>
  );
}
