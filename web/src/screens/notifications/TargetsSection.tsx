/** Targets: the list with "send test" and delete, and the form that adds one (secrets write-only). */
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client.ts';
import { errorAt, pointerErrors } from '../../api/field-errors.ts';
import { useWorkspace } from '../../app/workspace.tsx';
import { Button, ErrorBanner, Field, ListTable, useToast } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import {
  type Delivery,
  generateSigningSecret,
  notificationPaths,
  type Target,
  type TargetKind,
} from './api.ts';

const emptyDraft = {
  kind: 'webhook' as TargetKind,
  name: '',
  url: '',
  signingSecret: '',
  to: '',
  from: '',
  smtpHost: '',
  smtpPort: '587',
  smtpSecure: false,
  smtpUsername: '',
  smtpPassword: '',
};

function bodyOf(draft: typeof emptyDraft) {
  if (draft.kind === 'webhook') {
    return { kind: 'webhook', name: draft.name, url: draft.url, signingSecret: draft.signingSecret };
  }
  if (draft.kind === 'slack') return { kind: 'slack', name: draft.name, url: draft.url };
  return {
    kind: 'email',
    name: draft.name,
    to: draft.to.split(/[,\s]+/).filter(Boolean),
    from: draft.from,
    ...(draft.smtpHost
      ? {
          smtp: {
            host: draft.smtpHost,
            port: Number(draft.smtpPort),
            secure: draft.smtpSecure,
            ...(draft.smtpUsername ? { username: draft.smtpUsername } : {}),
            ...(draft.smtpPassword ? { password: draft.smtpPassword } : {}),
          },
        }
      : {}),
  };
}

export function TargetsSection({ targets, onChange }: { targets: Target[]; onChange(): void }) {
  const t = useT();
  const toast = useToast();
  const { projectId } = useWorkspace();
  const [draft, setDraft] = useState(emptyDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>();
  const set = (patch: Partial<typeof emptyDraft>) => setDraft((current) => ({ ...current, ...patch }));

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setFailure(undefined);
    try {
      await api.post(notificationPaths.targets(projectId), bodyOf(draft));
      toast(t('notifications.targets.created', { name: draft.name }));
      setDraft(emptyDraft);
      onChange();
    } catch (error) {
      setFailure(error);
      setErrors(pointerErrors(error));
    }
  };
  const sendTest = async (target: Target) => {
    setFailure(undefined);
    try {
      const delivery = await api.post<Delivery>(notificationPaths.test(projectId, target.id));
      const last = delivery.attempts.at(-1);
      toast(
        delivery.status === 'succeeded'
          ? t('notifications.targets.testSent', { name: target.name })
          : t('notifications.targets.testFailed', { name: target.name, error: last?.error ?? '' }),
      );
      onChange();
    } catch (error) {
      setFailure(error);
    }
  };
  const remove = async (target: Target) => {
    setFailure(undefined);
    try {
      await api.del(notificationPaths.target(projectId, target.id));
      onChange();
    } catch (error) {
      setFailure(error);
    }
  };

  return (
    <>
      <h2 className="section-title">{t('notifications.targets.title')}</h2>
      <ErrorBanner error={Object.keys(errors).length ? undefined : failure} />
      <ListTable
        label={t('notifications.targets.title')}
        columns={[
          t('notifications.field.name'),
          t('notifications.field.kind'),
          t('notifications.field.destination'),
        ]}
        rowActions
        items={targets}
        empty={<p className="muted">{t('notifications.targets.none')}</p>}
        row={(target) => (
          <tr key={target.id}>
            <td>{target.name}</td>
            <td>{t(`notifications.kind.${target.kind}`)}</td>
            <td className="mono small">
              {target.kind === 'webhook'
                ? target.url
                : target.kind === 'slack'
                  ? target.urlHost
                  : target.to?.join(', ')}
            </td>
            <td>
              <Button className="btn-small" onClick={() => void sendTest(target)}>
                {t('notifications.targets.sendTest')}
              </Button>{' '}
              <Button className="btn-small" variant="danger" onClick={() => void remove(target)}>
                {t('notifications.delete')}
              </Button>
            </td>
          </tr>
        )}
      />
      <form className="editor-form" onSubmit={create} noValidate aria-label={t('notifications.targets.new')}>
        <h3 className="section-title">{t('notifications.targets.new')}</h3>
        <div className="inline-fields">
          <Field label={t('notifications.field.kind')}>
            <select value={draft.kind} onChange={(e) => set({ kind: e.target.value as TargetKind })}>
              <option value="webhook">{t('notifications.kind.webhook')}</option>
              <option value="slack">{t('notifications.kind.slack')}</option>
              <option value="email">{t('notifications.kind.email')}</option>
            </select>
          </Field>
          <Field label={t('notifications.field.name')} required error={errorAt(errors, 'name')}>
            <input value={draft.name} onChange={(e) => set({ name: e.target.value })} />
          </Field>
        </div>
        {draft.kind !== 'email' ? (
          <Field
            label={draft.kind === 'slack' ? t('notifications.field.slackUrl') : t('notifications.field.url')}
            required
            error={errorAt(errors, 'url')}
            hint={draft.kind === 'slack' ? t('notifications.field.slackUrlHint') : undefined}
          >
            <input
              className="mono"
              type={draft.kind === 'slack' ? 'password' : 'url'}
              autoComplete="off"
              value={draft.url}
              onChange={(e) => set({ url: e.target.value })}
            />
          </Field>
        ) : null}
        {draft.kind === 'webhook' ? (
          <Field
            label={t('notifications.field.signingSecret')}
            required
            error={errorAt(errors, 'signingSecret')}
            hint={t('notifications.field.signingSecretHint')}
          >
            {(control) => (
              <span className="inline-fields">
                <input
                  {...control}
                  className="mono"
                  size={52}
                  autoComplete="off"
                  value={draft.signingSecret}
                  onChange={(e) => set({ signingSecret: e.target.value })}
                />
                <Button className="btn-small" onClick={() => set({ signingSecret: generateSigningSecret() })}>
                  {t('notifications.field.generate')}
                </Button>
              </span>
            )}
          </Field>
        ) : null}
        {draft.kind === 'email' ? (
          <>
            <div className="inline-fields">
              <Field label={t('notifications.field.to')} required error={errorAt(errors, 'to')}>
                <input value={draft.to} onChange={(e) => set({ to: e.target.value })} />
              </Field>
              <Field label={t('notifications.field.from')} required error={errorAt(errors, 'from')}>
                <input value={draft.from} onChange={(e) => set({ from: e.target.value })} />
              </Field>
            </div>
            <p className="muted small">{t('notifications.field.smtpHint')}</p>
            <div className="inline-fields">
              <Field label={t('notifications.field.smtpHost')} error={errorAt(errors, 'smtp')}>
                <input value={draft.smtpHost} onChange={(e) => set({ smtpHost: e.target.value })} />
              </Field>
              <Field label={t('notifications.field.smtpPort')}>
                <input
                  inputMode="numeric"
                  value={draft.smtpPort}
                  onChange={(e) => set({ smtpPort: e.target.value })}
                />
              </Field>
              <Field label={t('notifications.field.smtpUsername')}>
                <input value={draft.smtpUsername} onChange={(e) => set({ smtpUsername: e.target.value })} />
              </Field>
              <Field label={t('notifications.field.smtpPassword')}>
                <input
                  type="password"
                  autoComplete="new-password"
                  value={draft.smtpPassword}
                  onChange={(e) => set({ smtpPassword: e.target.value })}
                />
              </Field>
            </div>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={draft.smtpSecure}
                onChange={(e) => set({ smtpSecure: e.target.checked })}
              />{' '}
              {t('notifications.field.smtpSecure')}
            </label>
          </>
        ) : null}
        <div className="form-actions">
          <Button type="submit" variant="primary" disabled={!draft.name}>
            {t('notifications.targets.add')}
          </Button>
        </div>
      </form>
    </>
  );
}
