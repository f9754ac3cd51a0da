/**
 * Service accounts of the project (create with a role, disable, revoke every token issued so far,
 * delete) and the trust policies
 * that let an external workload's ID token act as the account: issuer, audience, bound claims.
 */
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client.ts';
import { errorAt, pointerErrors } from '../../api/field-errors.ts';
import type { Role } from '../../api/types.ts';
import { useWorkspace } from '../../app/workspace.tsx';
import {
  Button,
  Dialog,
  EmptyState,
  ErrorBanner,
  Field,
  ListTable,
  useAsync,
  useConfirmation,
  useToast,
} from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { identityPaths, type ServiceAccount, type TrustPolicy } from './api.ts';
import { RoleOptions } from './RoleOptions.tsx';

export function ServiceAccountsScreen() {
  const t = useT();
  const toast = useToast();
  const { projectId } = useWorkspace();
  const accounts = useAsync(
    () => api.get<{ data: ServiceAccount[] }>(identityPaths.serviceAccounts(projectId)),
    [projectId],
  );
  const [selected, setSelected] = useState<string>();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [role, setRole] = useState<Role | ''>('member');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>();

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setFailure(undefined);
    try {
      const created = await api.post<ServiceAccount>(identityPaths.serviceAccounts(projectId), {
        name,
        ...(description ? { description } : {}),
        ...(role ? { role } : {}),
      });
      toast(t('identity.accounts.created', { email: created.email }));
      setName('');
      setDescription('');
      setSelected(created.id);
      accounts.reload();
    } catch (error) {
      setFailure(error);
      setErrors(pointerErrors(error));
    }
  };

  const toggle = async (account: ServiceAccount) => {
    try {
      await api.put(identityPaths.serviceAccount(projectId, account.id), { disabled: !account.disabled });
      accounts.reload();
    } catch (error) {
      setFailure(error);
    }
  };

  const deletion = useConfirmation(async (account: ServiceAccount) => {
    await api.del(identityPaths.serviceAccount(projectId, account.id));
    toast(t('editors.deleted', { name: account.name }));
    if (selected === account.id) setSelected(undefined);
    accounts.reload();
  }, setFailure);

  const revocation = useConfirmation(async (account: ServiceAccount) => {
    await api.post(identityPaths.revokeTokens(projectId, account.id));
    toast(t('identity.accounts.tokensRevoked', { name: account.name }));
  }, setFailure);

  const current = accounts.data?.data.find((a) => a.id === selected);
  return (
    <section className="screen" aria-labelledby="accounts-title">
      <h1 id="accounts-title">{t('identity.accounts.title')}</h1>
      <ErrorBanner error={accounts.error ?? (Object.keys(errors).length ? undefined : failure)} />
      <ListTable
        label={t('identity.accounts.title')}
        columns={[t('editors.name'), t('identity.members.email'), t('scheduling.field.state')]}
        rowActions
        items={accounts.data?.data}
        empty={<EmptyState title={t('identity.accounts.none')} />}
        row={(account) => (
          <tr key={account.id}>
            <td>
              {account.name}
              {account.description ? <div className="muted small">{account.description}</div> : null}
            </td>
            <td className="mono">{account.email}</td>
            <td>{account.disabled ? t('identity.accounts.disabled') : t('identity.accounts.enabled')}</td>
            <td>
              <Button
                className="btn-small"
                aria-pressed={selected === account.id}
                onClick={() => setSelected(account.id)}
              >
                {t('identity.accounts.policies')}
              </Button>{' '}
              <Button className="btn-small" onClick={() => void toggle(account)}>
                {account.disabled ? t('identity.accounts.enable') : t('identity.accounts.disable')}
              </Button>{' '}
              <Button className="btn-small" onClick={() => revocation.ask(account)}>
                {t('identity.accounts.revokeTokens')}
              </Button>{' '}
              <Button className="btn-small" variant="danger" onClick={() => deletion.ask(account)}>
                {t('editors.delete')}
              </Button>
            </td>
          </tr>
        )}
      />
      <form className="editor-form" onSubmit={create} noValidate aria-label={t('identity.accounts.new')}>
        <h2 className="section-title">{t('identity.accounts.new')}</h2>
        <div className="inline-fields">
          <Field
            label={t('editors.name')}
            required
            error={errorAt(errors, 'name')}
            hint={t('identity.accounts.nameHint')}
          >
            <input className="mono" value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label={t('identity.members.role')} error={errorAt(errors, 'role')}>
            <select value={role} onChange={(e) => setRole(e.target.value as Role | '')}>
              <option value="">{t('identity.groups.noRole')}</option>
              <RoleOptions />
            </select>
          </Field>
        </div>
        <Field label={t('editors.description')} error={errorAt(errors, 'description')}>
          <input value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <div className="form-actions">
          <Button type="submit" variant="primary" disabled={!name}>
            {t('identity.accounts.create')}
          </Button>
        </div>
      </form>
      {current ? <TrustPolicies account={current} /> : null}
      <Dialog
        {...deletion.dialog}
        title={t('editors.deleteTitle', { name: deletion.subject?.name ?? '' })}
        danger
        confirmLabel={t('editors.delete')}
      >
        <p>{t('identity.accounts.deleteDetail')}</p>
      </Dialog>
      <Dialog
        {...revocation.dialog}
        title={t('identity.accounts.revokeTitle', { name: revocation.subject?.name ?? '' })}
        danger
        confirmLabel={t('identity.accounts.revokeTokens')}
      >
        <p>{t('identity.accounts.revokeDetail')}</p>
      </Dialog>
    </section>
  );
}

const emptyPolicy = (): TrustPolicy => ({
  id: '',
  issuer: 'https://',
  audience: '',
  boundClaims: [{ key: 'sub', pattern: '' }],
});

function TrustPolicies({ account }: { account: ServiceAccount }) {
  const t = useT();
  const toast = useToast();
  const { projectId } = useWorkspace();
  const policies = useAsync(
    () => api.get<{ data: TrustPolicy[] }>(identityPaths.trustPolicies(projectId, account.id)),
    [projectId, account.id],
  );
  const [draft, setDraft] = useState<TrustPolicy>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    setErrors({});
    setFailure(undefined);
    try {
      await api.put(identityPaths.trustPolicy(projectId, account.id, draft.id), {
        issuer: draft.issuer,
        audience: draft.audience,
        boundClaims: draft.boundClaims,
      });
      toast(t('editors.saved', { name: draft.id }));
      setDraft(undefined);
      policies.reload();
    } catch (error) {
      setFailure(error);
      setErrors(pointerErrors(error));
    }
  };

  const remove = async (policy: TrustPolicy) => {
    try {
      await api.del(identityPaths.trustPolicy(projectId, account.id, policy.id));
      policies.reload();
    } catch (error) {
      setFailure(error);
    }
  };

  const setClaim = (index: number, patch: Partial<{ key: string; pattern: string }>) =>
    draft &&
    setDraft({
      ...draft,
      boundClaims: draft.boundClaims.map((c, i) => (i === index ? { ...c, ...patch } : c)),
    });

  return (
    <section aria-labelledby="policies-heading">
      <div className="screen-header">
        <h2 id="policies-heading" className="section-title">
          {t('identity.policies.title', { name: account.name })}
        </h2>
        <div className="header-spacer" />
        <Button onClick={() => setDraft(emptyPolicy())}>{t('identity.policies.new')}</Button>
      </div>
      <ErrorBanner error={policies.error ?? (Object.keys(errors).length ? undefined : failure)} />
      <ListTable
        label={t('identity.policies.title', { name: account.name })}
        columns={[
          t('editors.id'),
          t('identity.policies.issuer'),
          t('identity.policies.audience'),
          t('identity.policies.claims'),
        ]}
        rowActions
        items={policies.data?.data}
        empty={<EmptyState title={t('identity.policies.none')} />}
        row={(policy) => (
          <tr key={policy.id}>
            <td className="mono">{policy.id}</td>
            <td className="mono">{policy.issuer}</td>
            <td className="mono">{policy.audience}</td>
            <td className="mono">{policy.boundClaims.map((c) => `${c.key} = ${c.pattern}`).join('; ')}</td>
            <td>
              <Button className="btn-small" onClick={() => setDraft(policy)}>
                {t('editors.edit')}
              </Button>{' '}
              <Button className="btn-small" variant="danger" onClick={() => void remove(policy)}>
                {t('editors.delete')}
              </Button>
            </td>
          </tr>
        )}
      />
      {draft ? (
        <form className="editor-form" onSubmit={save} noValidate aria-label={t('identity.policies.form')}>
          <Field label={t('editors.id')} required error={errorAt(errors, 'id')}>
            <input
              className="mono"
              value={draft.id}
              onChange={(e) => setDraft({ ...draft, id: e.target.value })}
            />
          </Field>
          <Field label={t('identity.policies.issuer')} required error={errorAt(errors, 'issuer')}>
            <input
              className="mono"
              value={draft.issuer}
              onChange={(e) => setDraft({ ...draft, issuer: e.target.value })}
            />
          </Field>
          <Field label={t('identity.policies.audience')} required error={errorAt(errors, 'audience')}>
            <input
              className="mono"
              value={draft.audience}
              onChange={(e) => setDraft({ ...draft, audience: e.target.value })}
            />
          </Field>
          <Field
            label={t('identity.policies.claims')}
            group
            error={errors.boundClaims}
            hint={t('identity.policies.claimsHint')}
          >
            <div className="list-editor">
              {draft.boundClaims.map((claim, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: claims are positions; the server names them by index.
                <div key={index} className="key-value-row">
                  <label className="inline-field">
                    <span>{t('identity.policies.claimKey', { n: index + 1 })}</span>
                    <input
                      className="mono"
                      value={claim.key}
                      onChange={(e) => setClaim(index, { key: e.target.value })}
                    />
                  </label>
                  <label className="inline-field">
                    <span>{t('identity.policies.claimPattern', { n: index + 1 })}</span>
                    <input
                      className="mono"
                      value={claim.pattern}
                      onChange={(e) => setClaim(index, { pattern: e.target.value })}
                    />
                  </label>
                  <Button
                    className="btn-small"
                    variant="quiet"
                    disabled={draft.boundClaims.length === 1}
                    aria-label={t('identity.policies.removeClaim', { n: index + 1 })}
                    onClick={() =>
                      setDraft({ ...draft, boundClaims: draft.boundClaims.filter((_, i) => i !== index) })
                    }
                  >
                    ×
                  </Button>
                  {errorAt(errors, `boundClaims/${index}`) ? (
                    <span className="field-error">{errorAt(errors, `boundClaims/${index}`)}</span>
                  ) : null}
                </div>
              ))}
              <Button
                className="btn-small"
                onClick={() =>
                  setDraft({ ...draft, boundClaims: [...draft.boundClaims, { key: '', pattern: '' }] })
                }
              >
                {t('identity.policies.addClaim')}
              </Button>
            </div>
          </Field>
          <div className="form-actions">
            <Button type="submit" variant="primary">
              {t('editors.save')}
            </Button>
            <Button onClick={() => setDraft(undefined)}>{t('common.cancel')}</Button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
