/** The console: language, toasts, the login gate, then the screen the URL names. */
import { Suspense } from 'react';
import { EmptyState, ToastProvider } from '../components/index.ts';
import { I18nProvider, useT } from '../i18n/index.tsx';
import { InvitationScreen } from '../screens/accounts/InvitationScreen.tsx';
import { screens } from '../screens/registry.ts';
import type { Screen } from '../screens/screen.ts';
import { Home } from './Home.tsx';
import { LoginGate } from './LoginGate.tsx';
import { RouteFocus } from './RouteFocus.tsx';
import { Link, matchPath, useRoute } from './router.tsx';
import { Shell } from './Shell.tsx';

export function App({ screenList = screens }: { screenList?: Screen[] }) {
  return (
    <I18nProvider>
      <ToastProvider>
        <RouteFocus />
        <Gate screenList={screenList} />
      </ToastProvider>
    </I18nProvider>
  );
}

/** An invitation link is opened before anyone is signed in; everything else is behind the login gate. */
function Gate({ screenList }: { screenList: Screen[] }) {
  const { path } = useRoute();
  const invitation = matchPath('/invitations/:token', path);
  if (invitation) return <InvitationScreen token={invitation.token!} />;
  return (
    <LoginGate>
      <Outlet screenList={screenList} />
    </LoginGate>
  );
}

function Outlet({ screenList }: { screenList: Screen[] }) {
  const { path } = useRoute();
  if (path === '/' || path === '/index.html') return <Home />;
  const projectOnly = matchPath('/p/:projectId', path) ?? matchPath('/p/:projectId/e/:environmentId', path);
  if (projectOnly && !projectOnly.environmentId) return <Home projectId={projectOnly.projectId!} />;
  for (const screen of screenList) {
    const params = matchPath(screen.path, path);
    if (!params) continue;
    const Component = screen.component;
    if (params.projectId && params.environmentId) {
      return (
        <Shell projectId={params.projectId} environmentId={params.environmentId} screens={screenList}>
          <Suspense fallback={<ScreenLoading />}>
            <Component key={screen.path} params={params} />
          </Suspense>
        </Shell>
      );
    }
    return (
      <Suspense fallback={<ScreenLoading />}>
        <Component params={params} />
      </Suspense>
    );
  }
  const workspace = /^\/p\/([^/]+)\/e\/([^/]+)/.exec(path);
  if (workspace) {
    return (
      <Shell
        projectId={decodeURIComponent(workspace[1]!)}
        environmentId={decodeURIComponent(workspace[2]!)}
        screens={screenList}
      >
        <NotFound />
      </Shell>
    );
  }
  return (
    <main className="gate">
      <NotFound />
    </main>
  );
}

/** Shown while a screen's code loads (screens are fetched on first use). */
function ScreenLoading() {
  const t = useT();
  return (
    <p className="screen-loading" aria-busy="true">
      {t('common.loading')}
    </p>
  );
}

function NotFound() {
  const t = useT();
  return (
    <EmptyState heading="h1" title={t('app.notFound')} action={<Link href="/">{t('app.goHome')}</Link>}>
      {t('app.notFoundDetail')}
    </EmptyState>
  );
}
