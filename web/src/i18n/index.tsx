/**
 * English and Japanese. `useT()` gives `t(key, vars?)`; `{name}` in a message is replaced by
 * `vars.name`. The choice is remembered in localStorage; the first visit follows the browser.
 * Screens other than the core keep their keys in `<area>.en.ts` / `<area>.ja.ts`, merged in extra.ts.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { en } from './en.ts';
import { extraMessages } from './extra.ts';
import { ja } from './ja.ts';

export type Language = 'en' | 'ja';
export const languages: readonly Language[] = ['en', 'ja'];
export type Translate = (key: string, vars?: Record<string, string | number>) => string;

const storageKey = 'dogu.language';

export const dictionaries: Record<Language, Record<string, string>> = {
  en: { ...en, ...extraMessages.en },
  ja: { ...ja, ...extraMessages.ja },
};

export function translate(language: Language, key: string, vars?: Record<string, string | number>): string {
  const template = dictionaries[language][key] ?? dictionaries.en[key] ?? key;
  if (!vars) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

export function initialLanguage(): Language {
  try {
    const saved = localStorage.getItem(storageKey);
    if (saved === 'en' || saved === 'ja') return saved;
  } catch {
    // Storage can be off (private mode); the browser's language still works.
  }
  return typeof navigator !== 'undefined' && navigator.language?.toLowerCase().startsWith('ja') ? 'ja' : 'en';
}

interface I18nValue {
  language: Language;
  setLanguage(language: Language): void;
  t: Translate;
}

const I18nContext = createContext<I18nValue>({
  language: 'en',
  setLanguage: () => {},
  t: (key, vars) => translate('en', key, vars),
});

export function I18nProvider({ children, language: fixed }: { children: ReactNode; language?: Language }) {
  const [language, setLanguageState] = useState<Language>(() => fixed ?? initialLanguage());
  const setLanguage = useCallback((next: Language) => {
    setLanguageState(next);
    try {
      localStorage.setItem(storageKey, next);
    } catch {
      // Not remembered, but the switch itself still works.
    }
  }, []);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  const value = useMemo<I18nValue>(
    () => ({ language, setLanguage, t: (key, vars) => translate(language, key, vars) }),
    [language, setLanguage],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useT(): Translate {
  return useContext(I18nContext).t;
}

export function useLanguage(): { language: Language; setLanguage(language: Language): void } {
  const { language, setLanguage } = useContext(I18nContext);
  return { language, setLanguage };
}
