/**
 * An error as the user should read it: a title in the user's language chosen by the Problem
 * Details `code` (the server's English title when the code is new to the console), the server's
 * detail, and each field error by its pointer (in Japanese when the server gave a `ja` text). Unknown errors say only that the request failed
 * (no stack traces).
 */
import { ApiError } from '../api/client.ts';
import { dictionaries, type Translate, useLanguage, useT } from '../i18n/index.tsx';

export function problemTitle(t: Translate, error: ApiError): string {
  const key = `problem.${error.code}`;
  return key in dictionaries.en ? t(key) : error.title;
}

export function ErrorBanner({ error, onDismiss }: { error: unknown; onDismiss?: () => void }) {
  const t = useT();
  const { language } = useLanguage();
  if (!error) return null;
  const api = error instanceof ApiError ? error : undefined;
  const title = api ? problemTitle(t, api) : t('error.network');
  const detail = api ? api.detail : t('error.networkDetail');
  return (
    <div className="error-banner" role="alert">
      <div className="error-banner-text">
        <strong>{title}</strong>
        {detail && detail !== title && detail !== api?.title ? <span> — {detail}</span> : null}
        {api && api.errors.length > 0 ? (
          <ul className="error-banner-list">
            {api.errors.map((e) => (
              <li key={`${e.pointer}:${e.detail}`}>
                <code>{e.pointer.replace(/^#/, '')}</code>{' '}
                {language === 'ja' && typeof e.ja === 'string' ? e.ja : e.detail}
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
