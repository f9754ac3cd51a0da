/**
 * E-mail and password (POST /auth/sign-in sets the session cookie), and the single sign-on button
 * when this Dogu has an IdP (GET /public/v1/login/config answers). docs/accounts.md.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { api } from '../api/client.ts';
import type { Session } from '../api/types.ts';
import { Button, ErrorBanner, Field } from '../components/index.ts';
import { useT } from '../i18n/index.tsx';

export function SignInForm({ onSignedIn, onSso }: { onSignedIn(session: Session): void; onSso(): void }) {
  const t = useT();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>();
  const [sso, setSso] = useState(false);

  useEffect(() => {
    api.get('/public/v1/login/config').then(
      () => setSso(true),
      () => setSso(false),
    );
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    try {
      onSignedIn(await api.post<Session>('/auth/sign-in', { email, password }));
    } catch (error) {
      setFailure(error);
      setPassword('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <form className="sign-in-form" onSubmit={(event) => void submit(event)} aria-label={t('login.signIn')}>
        <ErrorBanner error={failure} />
        <Field label={t('accounts.signIn.email')} required>
          <input
            type="email"
            name="email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            required
          />
        </Field>
        <Field label={t('accounts.signIn.password')} required>
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            required
          />
        </Field>
        <div className="gate-actions">
          <Button type="submit" variant="primary" busy={busy}>
            {t('accounts.signIn.submit')}
          </Button>
        </div>
      </form>
      {sso ? (
        <div className="gate-actions sign-in-sso">
          <span className="muted small">{t('accounts.signIn.or')}</span>
          <Button onClick={onSso}>{t('accounts.signIn.sso')}</Button>
        </div>
      ) : null}
    </>
  );
}
