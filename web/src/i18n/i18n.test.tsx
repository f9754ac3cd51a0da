// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LanguageSwitch } from '../app/LanguageSwitch.tsx';
import { en } from './en.ts';
import { extraMessages } from './extra.ts';
import { dictionaries, I18nProvider, translate, useT } from './index.tsx';
import { ja } from './ja.ts';

beforeEach(() => localStorage.clear());
afterEach(cleanup);

function Greeting() {
  const t = useT();
  return (
    <p>
      {t('action.run')} / {t('actions.noMatch', { query: 'foo' })}
    </p>
  );
}

describe('i18n', () => {
  it('the switch changes every message at once and is remembered for the next visit', () => {
    const first = render(
      <I18nProvider>
        <LanguageSwitch />
        <Greeting />
      </I18nProvider>,
    );
    expect(screen.getByText('Run / No action matches “foo”')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'ja' } });
    expect(screen.getByText('実行 / 「foo」に一致するアクションはありません')).toBeTruthy();
    expect(document.documentElement.lang).toBe('ja');
    expect(localStorage.getItem('dogu.language')).toBe('ja');
    first.unmount();

    render(
      <I18nProvider>
        <Greeting />
      </I18nProvider>,
    );
    expect(screen.getByText('実行 / 「foo」に一致するアクションはありません')).toBeTruthy();
  });

  it('Japanese covers every English key (core and extra areas) with real text, not copies', () => {
    const english = { ...en, ...extraMessages.en };
    const japanese = { ...ja, ...extraMessages.ja };
    const missing = Object.keys(english).filter((key) => !japanese[key as keyof typeof japanese]);
    expect(missing).toEqual([]);
    // Brand names and code-like strings may stay the same; sentences must be translated.
    const untranslated = Object.keys(english).filter((key) => {
      const text = english[key as keyof typeof english];
      return /[a-z]{3,} [a-z]{3,}/i.test(text) && japanese[key as keyof typeof japanese] === text;
    });
    expect(untranslated).toEqual([]);
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(english)) {
      expect(placeholders(japanese[key as keyof typeof japanese]!), key).toEqual(
        placeholders(english[key as keyof typeof english]),
      );
    }
  });

  it('an unknown key shows the key itself (visible in review), a missing variable stays marked', () => {
    expect(translate('ja', 'no.such.key')).toBe('no.such.key');
    expect(translate('en', 'actions.noMatch')).toBe('No action matches “{query}”');
    expect(Object.keys(dictionaries.ja).length).toBe(Object.keys(dictionaries.en).length);
  });
});
