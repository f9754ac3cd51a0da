/** /account: change your password (other sessions end), or sign out everywhere. */
import { type FormEvent, useState } from 'react';
import { api, setCsrfToken } from '../../api/client.ts';
import { useSession } from '../../app/session.tsx';
import { Button, ErrorBanner, Field, useAsync, useToast } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { AccountFrame } from './AccountFrame.tsx';
import { type Account, accountPaths } from './api.ts';

export function AccountScreen() {
  const t = useT();
  const toast = useToast();
  const { user, signOut } = useSession();
  const account = useAsync(() => api.get<Account>(accountPaths.user(user.id)), [user.id]);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>();

  const change = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    try {
      const renewed = await api.post<{ csrfToken?: string }>(accountPaths.password, {
        currentPassword: current,
        newPassword: next,
      });
      // This session was renewed with a new cookie; its CSRF token changed with it.
      if (renewed.csrfToken) setCsrfToken(renewed.csrfToken);
      setCurrent('');
      setNext('');
      toast(t('accounts.me.changed'));
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  const endEverywhere = async () => {
    setBusy(true);
    try {
      await api.post(accountPaths.revokeSessions(user.id));
      await signOut();
    } catch (error) {
      setFailure(error);
      setBusy(false);
    }
  };

  return (
    <AccountFrame title={t('accounts.me.title')}>
      <p>
        {user.name} <span className="muted">({user.email})</span>
      </p>
      <ErrorBanner error={account.error ?? failure} onDismiss={() => setFailure(undefined)} />
      <h2 className="section-title">{t('accounts.me.changePassword')}</h2>
      {account.data && !account.data.hasPassword ? (
        <p className="muted">{t('accounts.me.noPassword')}</p>
      ) : (
        <form onSubmit={(event) => void change(event)} className="account-form">
          <input type="email" hidden readOnly autoComplete="username" value={user.email} />
          <Field label={t('accounts.me.current')} required>
            <input
              type="password"
              name="current-password"
              autoComplete="current-password"
              value={current}
              onChange={(event) => setCurrent(event.target.value)}
              required
            />
          </Field>
          <Field label={t('accounts.me.new')} required hint={t('accounts.password.rules')}>
            <input
              type="password"
              name="new-password"
              autoComplete="new-password"
              value={next}
              onChange={(event) => setNext(event.target.value)}
              required
            />
          </Field>
          <div className="form-actions">
            <Button type="submit" variant="primary" busy={busy}>
              {t('accounts.me.changePassword')}
            </Button>
          </div>
        </form>
      )}
      <h2 className="section-title">{t('accounts.me.signOutEverywhere')}</h2>
      <p className="muted">{t('accounts.me.signOutEverywhereDetail')}</p>
      <Button variant="danger" busy={busy} onClick={() => void endEverywhere()}>
        {t('accounts.me.signOutEverywhere')}
      </Button>
    </AccountFrame>
  );
}
