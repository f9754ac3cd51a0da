/**
 * /admin/users (account administrators): every account with its status; invite by e-mail (the
 * link is shown once, to copy) or create with a password; disable, enable, a new link, end sessions;
 * the single sign-on provider.
 */
import { type FormEvent, useState } from 'react';
import { ApiError, api } from '../../api/client.ts';
import {
  Button,
  EmptyState,
  ErrorBanner,
  Field,
  ListTable,
  useAsync,
  useToast,
} from '../../components/index.ts';
import { formatTime } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { AccountFrame } from './AccountFrame.tsx';
import { type Account, accountPaths, type IssuedInvitation } from './api.ts';
import { SsoProviderForm } from './SsoProviderForm.tsx';

type Answer = Account & { invitation?: IssuedInvitation };

export function UsersScreen() {
  const t = useT();
  const toast = useToast();
  const { language } = useLanguage();
  const users = useAsync(() => api.get<{ data: Account[] }>(accountPaths.users), []);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [administrator, setAdministrator] = useState(false);
  const [busy, setBusy] = useState<string>();
  const [failure, setFailure] = useState<unknown>();
  const [issued, setIssued] = useState<{ email: string; invitation: IssuedInvitation }>();

  const act = async (key: string, run: () => Promise<void>) => {
    setBusy(key);
    setFailure(undefined);
    try {
      await run();
      users.reload();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(undefined);
    }
  };

  const create = (event: FormEvent) => {
    event.preventDefault();
    void act('create', async () => {
      const answer = await api.post<Answer>(accountPaths.users, {
        email,
        ...(name ? { name } : {}),
        ...(password ? { password } : {}),
        administrator,
      });
      if (answer.invitation) setIssued({ email: answer.email, invitation: answer.invitation });
      else toast(t('accounts.users.created', { email: answer.email }));
      setEmail('');
      setName('');
      setPassword('');
      setAdministrator(false);
    });
  };

  const setDisabled = (account: Account, disabled: boolean) =>
    act(account.userId, async () => {
      await api.patch(accountPaths.user(account.userId), { disabled });
      toast(t(disabled ? 'accounts.users.disabled' : 'accounts.users.enabled', { email: account.email }));
    });
  const newLink = (account: Account) =>
    act(account.userId, async () => {
      const answer = await api.post<Answer>(accountPaths.invitationOf(account.userId));
      if (answer.invitation) setIssued({ email: answer.email, invitation: answer.invitation });
    });
  const endSessions = (account: Account) =>
    act(account.userId, async () => {
      await api.post(accountPaths.revokeSessions(account.userId));
      toast(t('accounts.users.sessionsEnded', { email: account.email }));
    });
  const copy = async (url: string) => {
    await navigator.clipboard?.writeText(url).catch(() => undefined);
    toast(t('accounts.users.copied'));
  };

  if (users.error instanceof ApiError && users.error.status === 403) {
    return (
      <AccountFrame title={t('accounts.users.title')}>
        <EmptyState title={t('accounts.users.notAdministrator')} />
      </AccountFrame>
    );
  }
  return (
    <AccountFrame title={t('accounts.users.title')}>
      <ErrorBanner error={users.error ?? failure} onDismiss={() => setFailure(undefined)} />
      {issued ? (
        <div className="invitation-link" role="status">
          <p>{t('accounts.users.invited', { email: issued.email })}</p>
          <div className="invitation-link-row">
            <input
              readOnly
              value={issued.invitation.url}
              aria-label={t('accounts.users.copy')}
              className="mono"
            />
            <Button onClick={() => void copy(issued.invitation.url)}>{t('accounts.users.copy')}</Button>
          </div>
          <p className="muted small">
            {t('accounts.users.linkExpires', { time: formatTime(issued.invitation.expiresAt, language) })}
            {issued.invitation.sent ? ` ${t('accounts.users.mailed')}` : ''}
          </p>
        </div>
      ) : null}
      <form className="account-form" onSubmit={create} aria-label={t('accounts.users.newUser')}>
        <h2 className="section-title">{t('accounts.users.newUser')}</h2>
        <Field label={t('accounts.users.email')} required>
          <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} required />
        </Field>
        <Field label={t('accounts.users.name')}>
          <input value={name} onChange={(event) => setName(event.target.value)} />
        </Field>
        <Field label={t('accounts.users.passwordOptional')} hint={t('accounts.password.rules')}>
          <input
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </Field>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={administrator}
            onChange={(event) => setAdministrator(event.target.checked)}
          />{' '}
          {t('accounts.users.makeAdministrator')}
        </label>
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={busy === 'create'}>
            {password ? t('accounts.users.create') : t('accounts.users.invite')}
          </Button>
        </div>
      </form>
      <ListTable
        label={t('accounts.users.title')}
        columns={[
          t('accounts.users.email'),
          t('accounts.users.name'),
          t('accounts.users.status'),
          t('accounts.users.administrator'),
        ]}
        rowActions
        items={users.data?.data}
        empty={<EmptyState title={t('accounts.users.none')} />}
        row={(account) => (
          <tr key={account.userId} data-email={account.email}>
            <td>{account.email}</td>
            <td>{account.name}</td>
            <td>
              <span className={`state-badge account-${account.status}`}>
                {t(`accounts.users.status.${account.status}`)}
              </span>
            </td>
            <td>{account.administrator ? '✓' : ''}</td>
            <td className="row-actions">
              {account.status === 'disabled' ? (
                <Button
                  className="btn-small"
                  busy={busy === account.userId}
                  onClick={() => void setDisabled(account, false)}
                >
                  {t('accounts.users.enable')}
                </Button>
              ) : (
                <>
                  <Button
                    className="btn-small"
                    variant="danger"
                    busy={busy === account.userId}
                    onClick={() => void setDisabled(account, true)}
                  >
                    {t('accounts.users.disable')}
                  </Button>
                  <Button
                    className="btn-small"
                    busy={busy === account.userId}
                    onClick={() => void newLink(account)}
                  >
                    {t('accounts.users.newLink')}
                  </Button>
                  <Button
                    className="btn-small"
                    busy={busy === account.userId}
                    onClick={() => void endSessions(account)}
                  >
                    {t('accounts.users.endSessions')}
                  </Button>
                </>
              )}
            </td>
          </tr>
        )}
      />
      <SsoProviderForm />
    </AccountFrame>
  );
}
