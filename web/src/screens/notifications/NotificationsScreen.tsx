/**
 * A project's notifications: whether targets may be on private networks, the targets, the rules
 * (which events of which actions, cron jobs or batches go where) and the delivery log.
 */
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { useWorkspace } from '../../app/workspace.tsx';
import { Button, ErrorBanner, ListTable, useAsync } from '../../components/index.ts';
import { formatTime } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { type Delivery, notificationPaths, type Settings } from './api.ts';
import { RulesSection } from './RulesSection.tsx';
import { TargetsSection } from './TargetsSection.tsx';

export function NotificationsScreen() {
  const t = useT();
  const { language } = useLanguage();
  const { projectId } = useWorkspace();
  const settings = useAsync(() => api.get<Settings>(notificationPaths.settings(projectId)), [projectId]);
  const log = useAsync(
    () => api.get<{ data: Delivery[] }>(notificationPaths.deliveries(projectId)),
    [projectId],
  );
  const changed = () => {
    settings.reload();
    log.reload();
  };
  // Shown at once; put back if the server refuses.
  const [allowPrivate, setAllowPrivate] = useState<boolean>();
  const [policyError, setPolicyError] = useState<unknown>();
  const setPolicy = async (allowPrivateNetworks: boolean) => {
    setAllowPrivate(allowPrivateNetworks);
    setPolicyError(undefined);
    try {
      await api.put(notificationPaths.networkPolicy(projectId), { allowPrivateNetworks });
      settings.reload();
    } catch (error) {
      setAllowPrivate(undefined);
      setPolicyError(error);
    }
  };
  return (
    <section className="screen" aria-labelledby="notifications-title">
      <h1 id="notifications-title">{t('notifications.title')}</h1>
      <p className="muted">{t('notifications.intro')}</p>
      <ErrorBanner error={settings.error ?? policyError} />
      {settings.data ? (
        <>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={allowPrivate ?? settings.data.allowPrivateNetworks}
              onChange={(e) => void setPolicy(e.target.checked)}
            />{' '}
            {t('notifications.allowPrivate')}
          </label>
          <p className="muted small">{t('notifications.allowPrivateHint')}</p>
          <TargetsSection targets={settings.data.targets} onChange={changed} />
          <RulesSection settings={settings.data} onChange={changed} />
        </>
      ) : null}
      <h2 className="section-title">{t('notifications.log.title')}</h2>
      <ErrorBanner error={log.error} />
      <div className="form-actions">
        <Button className="btn-small" onClick={() => log.reload()}>
          {t('notifications.log.reload')}
        </Button>
      </div>
      <ListTable
        label={t('notifications.log.title')}
        columns={[
          t('notifications.log.time'),
          t('notifications.log.target'),
          t('notifications.log.event'),
          t('notifications.log.status'),
          t('notifications.log.attempts'),
          t('notifications.log.last'),
        ]}
        items={log.data?.data}
        empty={<p className="muted">{t('notifications.log.none')}</p>}
        row={(delivery) => {
          const last = delivery.attempts.at(-1);
          return (
            <tr key={delivery.id}>
              <td className="mono small">{formatTime(delivery.createdAt, language)}</td>
              <td>{delivery.targetName}</td>
              <td>{t(`notifications.event.${delivery.event}`)}</td>
              <td>{t(`notifications.status.${delivery.status}`)}</td>
              <td>{delivery.attempts.length}</td>
              <td className="small">
                {last?.statusCode ? `HTTP ${last.statusCode}` : ''}
                {last?.error ? ` ${last.error}` : ''}
                {delivery.nextAttemptAt && delivery.status === 'pending'
                  ? ` ${t('notifications.log.next', { at: formatTime(delivery.nextAttemptAt, language) })}`
                  : ''}
              </td>
            </tr>
          );
        }}
      />
    </section>
  );
}
