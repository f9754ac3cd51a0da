/**
 * /connect/<request>: an MCP client asks to act as the signed-in person in one project's
 * environment. The person sees the client's name, where the answer is sent (its redirect host) and
 * the project and environment, and allows or denies; the browser then goes to the client.
 * The login gate has already asked for sign-in (password or single sign-on) and brought them back.
 */
import { useEffect, useRef, useState } from 'react';
import { ApiError, api, pathOf } from '../../api/client.ts';
import { LanguageSwitch } from '../../app/LanguageSwitch.tsx';
import { useSession } from '../../app/session.tsx';
import { Button, ErrorBanner, useAsync } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';

interface AuthorizationRequest {
  client: { id: string; name: string };
  redirectHost: string;
  projectId: string;
  projectName: string;
  environmentId: string;
  expiresAt: string;
}

const requestPath = (requestId: string) => pathOf`/oauth/requests/${requestId}`;

export function ConsentScreen({ params }: { params: Record<string, string> }) {
  const t = useT();
  const { user } = useSession();
  const requestId = params.requestId!;
  const request = useAsync(() => api.get<AuthorizationRequest>(requestPath(requestId)), [requestId]);
  const [busy, setBusy] = useState<'allow' | 'deny'>();
  const [failure, setFailure] = useState<unknown>();
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => heading.current?.focus(), []);

  const decide = async (decision: 'allow' | 'deny') => {
    setBusy(decision);
    setFailure(undefined);
    try {
      const { redirectTo } = await api.post<{ redirectTo: string }>(requestPath(requestId), { decision });
      window.location.assign(redirectTo);
    } catch (error) {
      setFailure(error);
      setBusy(undefined);
    }
  };

  const gone = request.error instanceof ApiError && request.error.status === 404;
  return (
    <main className="gate">
      <div className="gate-card consent-card">
        <div className="gate-brand">
          <span className="brand-mark" aria-hidden="true">
            D
          </span>
          <h1 ref={heading} tabIndex={-1}>
            {t('mcpOAuth.title')}
          </h1>
        </div>
        {request.error ? (
          <>
            <p role="alert">{gone ? t('mcpOAuth.gone') : null}</p>
            {gone ? null : <ErrorBanner error={request.error} />}
          </>
        ) : !request.data ? (
          <p className="muted">{t('common.loading')}</p>
        ) : (
          <>
            <p>
              {t('mcpOAuth.asks', { client: request.data.client.name, email: user.email ?? user.name ?? '' })}
            </p>
            <dl className="consent-facts">
              <dt>{t('mcpOAuth.client')}</dt>
              <dd>{request.data.client.name}</dd>
              <dt>{t('mcpOAuth.redirectHost')}</dt>
              <dd>
                <code>{request.data.redirectHost}</code>
              </dd>
              <dt>{t('mcpOAuth.project')}</dt>
              <dd>
                {request.data.projectName} <span className="muted">({request.data.projectId})</span>
              </dd>
              <dt>{t('mcpOAuth.environment')}</dt>
              <dd>{request.data.environmentId}</dd>
            </dl>
            <p className="muted">{t('mcpOAuth.explain')}</p>
            <ErrorBanner error={failure} />
            <div className="gate-actions">
              <Button
                variant="primary"
                busy={busy === 'allow'}
                disabled={busy !== undefined}
                onClick={() => void decide('allow')}
              >
                {t('mcpOAuth.allow')}
              </Button>
              <Button
                busy={busy === 'deny'}
                disabled={busy !== undefined}
                onClick={() => void decide('deny')}
              >
                {t('mcpOAuth.deny')}
              </Button>
            </div>
          </>
        )}
        <LanguageSwitch />
      </div>
    </main>
  );
}
