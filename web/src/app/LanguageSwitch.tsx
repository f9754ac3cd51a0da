/** English / 日本語, remembered for the next visit. */
import { type Language, languages, useLanguage, useT } from '../i18n/index.tsx';

const names: Record<Language, string> = { en: 'English', ja: '日本語' };

export function LanguageSwitch() {
  const t = useT();
  const { language, setLanguage } = useLanguage();
  return (
    <label className="language-switch">
      <span className="visually-hidden">{t('app.language')}</span>
      <select value={language} onChange={(event) => setLanguage(event.target.value as Language)}>
        {languages.map((code) => (
          <option key={code} value={code} lang={code}>
            {names[code]}
          </option>
        ))}
      </select>
    </label>
  );
}
