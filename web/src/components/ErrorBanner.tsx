/**
 * An error as the user should read it: the Problem Details title and detail, and each field
 * error by its pointer. Unknown errors say only that the request failed (no stack traces).
 */
import { ApiError } from '../api/client.ts';
import { useT } from '../i18n/index.tsx';

export function ErrorBanner({ error, onDismiss }: { error: unknown; onDismiss?: () => void }) {
  const t = useT();
  if (!error) return null;
  const api = error instanceof ApiError ? error : undefined;
  const title = api ? api.title : t('error.network');
  const detail = api ? api.detail : t('error.networkDetail');
  return (
    <div className="error-banner" role="alert">
      <div className="error-banner-text">
        <strong>{title}</strong>
        {detail && detail !== title ? <span> — {detail}</span> : null}
        {api && api.errors.length > 0 ? (
          <ul className="error-banner-list">
            {api.errors.map((e) => (
              <li key={`${e.pointer}:${e.detail}`}>
                <code>{e.pointer.replace(/^#/, '')}</code> {e.detail}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {onDismiss ? (
        <button
          type="button"
          className="error-banner-close"
          onClick={onDismiss}
          aria-label={t('common.dismiss')}
        >
          ×
        </button>
      ) : null}
    </div>
  );
}
