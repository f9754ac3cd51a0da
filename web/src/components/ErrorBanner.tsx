/**
 * An error as the user should read it: a title in the user's language chosen by the Problem
 * Details `code` (the server's English title when the code is new to the console), the server's
 * detail, and each field error by its pointer (in Japanese when the server gave a `ja` text). Unknown errors say only that the request failed
 * (no stack traces).
 */
import { ApiError } from '../api/client.ts';
import { pointerSegments } from '../api/field-errors.ts';
import { dictionaries, type Translate, useLanguage, useT } from '../i18n/index.tsx';

export function problemTitle(t: Translate, error: ApiError): string {
  const key = `problem.${error.code}`;
  return key in dictionaries.en ? t(key) : error.title;
}

/** Japanese names of what the API says it did not find (`Action 'x' was not found.`). */
const notFoundNames: Record<string, string> = {
  Route: 'API の経路',
  Action: 'アクション',
  'Action group': 'アクショングループ',
  'Data source': 'データソース',
  View: 'ビュー',
  Project: 'プロジェクト',
  Environment: '環境',
  Variable: '変数',
  Secret: 'シークレット',
  Execution: '実行',
  'Review request': 'レビュー依頼',
  'Cron job': 'cron ジョブ',
  Reservation: '予約',
  Batch: 'バッチ',
  Member: 'メンバー',
  User: 'ユーザー',
  'User group': 'ユーザーグループ',
  'Service account': 'サービスアカウント',
};

/**
 * The server's detail in the user's language where the console knows its form: a not-found
 * message in Japanese names the thing in Japanese; other details are shown as the server wrote them.
 */
export function localDetail(language: string, detail: string): string {
  if (language !== 'ja') return detail;
  const missing = /^(.+) '(.*)' was not found\.$/.exec(detail);
  if (missing && notFoundNames[missing[1]!])
    return `${notFoundNames[missing[1]!]} '${missing[2]}' が見つかりません。`;
  return detail;
}

export function ErrorBanner({
  error,
  onDismiss,
  shownBesideFields = [],
}: {
  error: unknown;
  onDismiss?: () => void;
  /** Body members whose errors the form shows beside their inputs: not repeated here. */
  shownBesideFields?: string[];
}) {
  const t = useT();
  const { language } = useLanguage();
  if (!error) return null;
  const api = error instanceof ApiError ? error : undefined;
  const title = api ? problemTitle(t, api) : t('error.network');
  const detail = api ? localDetail(language, api.detail) : t('error.networkDetail');
  const listed = (api?.errors ?? []).filter((e) => {
    const [first] = pointerSegments(e.pointer);
    return !shownBesideFields.includes(first ?? '');
  });
  return (
    <div className="error-banner" role="alert">
      <div className="error-banner-text">
        <strong>{title}</strong>
        {detail && detail !== title && detail !== api?.title ? <span> — {detail}</span> : null}
        {listed.length > 0 ? (
          <ul className="error-banner-list">
            {listed.map((e) => (
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
