/**
 * Connect / Disconnect of a data source environment whose kind connects with OAuth (decision 0041):
 * Connect sends the browser to the provider's consent page; the callback brings it back here.
 */
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { Button, ErrorBanner, useToast } from '../../components/index.ts';
import { formatTime } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { type OAuthConnectionView, oauthPaths } from './connector-kinds.ts';

export function OAuthConnectionPanel(props: {
  projectId: string;
  dataSourceId: string;
  environmentId: string;
  connection: OAuthConnectionView | undefined;
  onChanged(): void;
}) {
  const t = useT();
  const toast = useToast();
  const { language } = useLanguage();
  const [busy, setBusy] = useState<'connect' | 'disconnect'>();
  const [failure, setFailure] = useState<unknown>();
  const { projectId, dataSourceId, environmentId, connection } = props;

  const connect = async () => {
    setBusy('connect');
    setFailure(undefined);
    try {
      const { authorizationUrl } = await api.post<{ authorizationUrl: string }>(
        oauthPaths.start(projectId, dataSourceId, environmentId),
      );
      window.location.assign(authorizationUrl);
    } catch (error) {
      setFailure(error);
      setBusy(undefined);
    }
  };
  const disconnect = async () => {
    setBusy('disconnect');
    setFailure(undefined);
    try {
      await api.del(oauthPaths.disconnect(projectId, dataSourceId, environmentId));
      toast(t('editors.oauth.disconnected'));
      props.onChanged();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <fieldset className="oauth-connection" aria-label={t('editors.oauth.title')}>
      <legend>{t('editors.oauth.title')}</legend>
      {connection?.reconnectNeeded ? (
        <p className="field-error" role="alert" data-testid="oauth-state">
          {t('editors.oauth.reconnectNeeded', {
            account: connection.account ?? connection.connectedBy.email,
            time: formatTime(connection.reconnectNeeded.since, language),
          })}
        </p>
      ) : connection ? (
        <p className="test-ok" data-testid="oauth-state">
          {t('editors.oauth.connectedAs', {
            account: connection.account ?? connection.connectedBy.email,
            time: formatTime(connection.connectedAt, language),
            by: connection.connectedBy.email,
          })}
          <br />
          <small className="mono">{connection.scopes.join(' ')}</small>
        </p>
      ) : (
        <p data-testid="oauth-state">{t('editors.oauth.notConnected')}</p>
      )}
      <ErrorBanner error={failure} />
      <div className="inline-fields">
        <Button variant={connection ? undefined : 'primary'} busy={busy === 'connect'} onClick={connect}>
          {connection ? t('editors.oauth.reconnect') : t('editors.oauth.connect')}
        </Button>
        {connection ? (
          <Button variant="danger" busy={busy === 'disconnect'} onClick={disconnect}>
            {t('editors.oauth.disconnect')}
          </Button>
        ) : null}
      </div>
    </fieldset>
  );
}
