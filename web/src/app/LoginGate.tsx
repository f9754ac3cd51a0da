/**
 * Without a session: e-mail and password, and a single sign-on button to `/auth/login` (code +
 * PKCE) when an IdP is configured. The page the user wanted is kept in sessionStorage and opened
 * again after the IdP sends them back to `/`.
 */
import { type ReactNode, useEffect } from 'react';
import { Button, ErrorBanner } from '../components/index.ts';
import { useT } from '../i18n/index.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { navigate } from './router.tsx';
import { SignInForm } from './SignInForm.tsx';
import { SessionProvider, useSessionLoader } from './session.tsx';

const returnKey = 'dogu.returnTo';

export function LoginGate({ children }: { children: ReactNode }) {
  const t = useT();
  const { state, retry, signOut, signedIn } = useSessionLoader();

  useEffect(() => {
    if (state.status !== 'signed-in') return;
    const returnTo = sessionStorage.getItem(returnKey);
    sessionStorage.removeItem(returnKey);
    if (returnTo && returnTo !== '/' && window.location.pathname === '/')
      navigate(returnTo, { replace: true });
  }, [state.status]);

  if (state.status === 'loading') {
    return (
      <div className="gate" aria-busy="true">
        <p className="muted">{t('common.loading')}</p>
      </div>
    );
  }
  if (state.status === 'signed-in') {
    return <SessionProvider value={{ user: state.user, signOut }}>{children}</SessionProvider>;
  }
  const signIn = () => {
    const here = window.location.pathname + window.location.search;
    if (here !== '/') sessionStorage.setItem(returnKey, here);
    window.location.assign('/auth/login');
  };
  return (
    <main className="gate">
      <div className="gate-card">
        <div className="gate-brand">
          <span className="brand-mark" aria-hidden="true">
            D
          </span>
          <h1>{t('app.name')}</h1>
        </div>
        <p>{t(state.status === 'signed-out' && state.expired ? 'login.expired' : 'login.intro')}</p>
        {state.status === 'failed' ? (
          <>
            <ErrorBanner error={state.error} />
            <div className="gate-actions">
              <Button onClick={retry}>{t('common.retry')}</Button>
            </div>
          </>
        ) : (
          <SignInForm onSignedIn={signedIn} onSso={signIn} />
        )}
        <LanguageSwitch />
      </div>
    </main>
  );
}
