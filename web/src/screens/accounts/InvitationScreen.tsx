/**
 * /invitations/<token>, before anyone is signed in: who the invitation is for, the password rules,
 * and the password twice. A used, replaced or expired link says so and what to do.
 */
import { type FormEvent, useState } from 'react';
import { ApiError, api } from '../../api/client.ts';
import { LanguageSwitch } from '../../app/LanguageSwitch.tsx';
import { Button, ErrorBanner, Field, useAsync } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { accountPaths } from './api.ts';

const reasons = ['used', 'replaced', 'expired', 'disabled'];

export function InvitationScreen({ token }: { token: string }) {
  const t = useT();
  const invitation = useAsync(
    () => api.get<{ email: string; name: string; expiresAt: string }>(accountPaths.invitation(token)),
    [token],
  );
  const [name, setName] = useState<string>();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>();
  const mismatch = confirm !== '' && confirm !== password;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (mismatch) return;
    setBusy(true);
    setFailure(undefined);
    try {
      await api.post(accountPaths.acceptInvitation(token), { password, ...(name ? { name } : {}) });
      window.location.assign('/');
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  const refusal = invitation.error instanceof ApiError ? invitation.error : undefined;
  const reason = (refusal?.body as { reason?: string } | undefined)?.reason;
  return (
    <main className="gate">
      <div className="gate-card">
        <div className="gate-brand">
          <span className="brand-mark" aria-hidden="true">
            D
          </span>
          <h1>{t('accounts.invitation.title')}</h1>
        </div>
        {invitation.error ? (
          <>
            <p role="alert" className="invitation-refused">
              {reason && reasons.includes(reason)
                ? t(`accounts.invitation.${reason}`)
                : refusal?.status === 404
                  ? t('accounts.invitation.unknown')
                  : null}
            </p>
            {!refusal || (refusal.status !== 404 && !reason) ? (
              <ErrorBanner error={invitation.error} />
            ) : null}
            <a href="/" className="btn btn-secondary">
              {t('accounts.invitation.toSignIn')}
            </a>
          </>
        ) : !invitation.data ? (
          <p className="muted">{t('common.loading')}</p>
        ) : (
          <form onSubmit={(event) => void submit(event)}>
            <p>{t('accounts.invitation.for', { email: invitation.data.email })}</p>
            <ErrorBanner error={failure} />
            <Field label={t('accounts.invitation.name')}>
              <input
                value={name ?? invitation.data.name}
                autoComplete="name"
                onChange={(event) => setName(event.target.value)}
              />
            </Field>
            <input type="email" hidden readOnly autoComplete="username" value={invitation.data.email} />
            <Field label={t('accounts.invitation.password')} required hint={t('accounts.password.rules')}>
              <input
                type="password"
                name="new-password"
                autoComplete="new-password"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                required
              />
            </Field>
            <Field
              label={t('accounts.invitation.confirm')}
              required
              error={mismatch ? t('accounts.invitation.mismatch') : undefined}
            >
              <input
                type="password"
                name="confirm-password"
                autoComplete="new-password"
                value={confirm}
                onChange={(event) => setConfirm(event.target.value)}
                required
              />
            </Field>
            <div className="gate-actions">
              <Button type="submit" variant="primary" busy={busy} disabled={mismatch}>
                {t('accounts.invitation.submit')}
              </Button>
            </div>
          </form>
        )}
        <LanguageSwitch />
      </div>
    </main>
  );
}
