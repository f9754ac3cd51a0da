/**
 * The single sign-on provider on the users page (account administrators; docs/accounts.md):
 * issuer, client, secret (write-only), allowed e-mail domains and the projects newcomers join.
 * Saving checks discovery at the issuer; a failure names the step.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { ApiError, api } from '../../api/client.ts';
import { Button, ErrorBanner, Field, useAsync, useToast } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';

interface SsoProvider {
  issuer: string;
  clientId: string;
  cliClientId?: string;
  hasClientSecret: boolean;
  allowedDomains: string[];
  defaultMemberships: { projectId: string; role: string }[];
}

const path = '/api/v1/sso-provider';
const roles = ['admin', 'development_lead', 'developer', 'operations_lead', 'member'];

/** `demo: member` lines ↔ memberships. */
const membershipsOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [projectId = '', role = 'member'] = line.split(':').map((part) => part.trim());
      return { projectId, role };
    });

export function SsoProviderForm() {
  const t = useT();
  const toast = useToast();
  const current = useAsync(
    () =>
      api.get<SsoProvider>(path).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return undefined;
        throw error;
      }),
    [],
  );
  const [issuer, setIssuer] = useState('');
  const [clientId, setClientId] = useState('');
  const [cliClientId, setCliClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [domains, setDomains] = useState('');
  const [memberships, setMemberships] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>();

  useEffect(() => {
    const data = current.data;
    if (!data) return;
    setIssuer(data.issuer);
    setClientId(data.clientId);
    setCliClientId(data.cliClientId ?? '');
    setDomains(data.allowedDomains.join(', '));
    setMemberships(data.defaultMemberships.map((m) => `${m.projectId}: ${m.role}`).join('\n'));
  }, [current.data]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    try {
      await api.put(path, {
        issuer,
        clientId,
        ...(cliClientId ? { cliClientId } : {}),
        ...(clientSecret ? { clientSecret } : {}),
        allowedDomains: domains
          .split(/[\s,]+/)
          .map((d) => d.trim())
          .filter(Boolean),
        defaultMemberships: membershipsOf(memberships),
      });
      setClientSecret('');
      toast(t('accounts.sso.saved'));
      current.reload();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setBusy(true);
    try {
      await api.del(path);
      toast(t('accounts.sso.removed'));
      setIssuer('');
      setClientId('');
      setCliClientId('');
      setDomains('');
      setMemberships('');
      current.reload();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="account-form"
      onSubmit={(event) => void save(event)}
      aria-label={t('accounts.sso.title')}
    >
      <h2 className="section-title">{t('accounts.sso.title')}</h2>
      <p className="muted small">
        {t('accounts.sso.intro', { callback: `${window.location.origin}/auth/callback` })}
      </p>
      <ErrorBanner error={current.error ?? failure} onDismiss={() => setFailure(undefined)} />
      <Field label={t('accounts.sso.issuer')} required>
        <input type="url" value={issuer} onChange={(event) => setIssuer(event.target.value)} required />
      </Field>
      <Field label={t('accounts.sso.clientId')} required>
        <input value={clientId} onChange={(event) => setClientId(event.target.value)} required />
      </Field>
      <Field
        label={t('accounts.sso.clientSecret')}
        hint={current.data?.hasClientSecret ? t('accounts.sso.secretKept') : undefined}
      >
        <input
          type="password"
          autoComplete="off"
          value={clientSecret}
          onChange={(event) => setClientSecret(event.target.value)}
        />
      </Field>
      <Field label={t('accounts.sso.cliClientId')} hint={t('accounts.sso.cliClientIdHint')}>
        <input value={cliClientId} onChange={(event) => setCliClientId(event.target.value)} />
      </Field>
      <Field label={t('accounts.sso.domains')} hint={t('accounts.sso.domainsHint')}>
        <input value={domains} onChange={(event) => setDomains(event.target.value)} />
      </Field>
      <Field
        label={t('accounts.sso.memberships')}
        hint={t('accounts.sso.membershipsHint', { roles: roles.join(', ') })}
      >
        <textarea rows={3} value={memberships} onChange={(event) => setMemberships(event.target.value)} />
      </Field>
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={busy}>
          {t('accounts.sso.save')}
        </Button>
        {current.data ? (
          <Button variant="danger" busy={busy} onClick={() => void remove()}>
            {t('accounts.sso.remove')}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
