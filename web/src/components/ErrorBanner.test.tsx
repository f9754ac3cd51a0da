// @vitest-environment jsdom
/** The error banner: each field error by its pointer, in the user's language when the server gave both. */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.ts';
import { I18nProvider, type Language } from '../i18n/index.tsx';
import { ErrorBanner } from './ErrorBanner.tsx';

afterEach(cleanup);

const refused = new ApiError(422, {
  code: 'invalid_definition',
  title: 'Invalid definition',
  detail: '2 problems in the view',
  errors: [
    {
      pointer: '#/definition/queries/0/arguments/id',
      detail: 'syntax error in the expression at line 1, column 16: Expected expression after +',
      ja: '式の 1 行 16 列で構文エラー: Expected expression after +',
    },
    { pointer: '#/name', detail: 'Too small: expected string to have >=1 characters' },
  ],
});

const shown = (language: Language) => {
  render(
    <I18nProvider language={language}>
      <ErrorBanner error={refused} />
    </I18nProvider>,
  );
  return screen.getAllByRole('listitem').map((item) => item.textContent);
};

describe('ErrorBanner', () => {
  it('names each field error by its pointer, in English', () => {
    expect(shown('en')).toEqual([
      '/definition/queries/0/arguments/id syntax error in the expression at line 1, column 16: Expected expression after +',
      '/name Too small: expected string to have >=1 characters',
    ]);
  });

  it('uses the Japanese text in Japanese, and the English one where there is none', () => {
    expect(shown('ja')).toEqual([
      '/definition/queries/0/arguments/id 式の 1 行 16 列で構文エラー: Expected expression after +',
      '/name Too small: expected string to have >=1 characters',
    ]);
  });
});

describe('ErrorBanner in Japanese', () => {
  it("says what was not found in Japanese, not the server's English sentence", () => {
    render(
      <I18nProvider language="ja">
        <ErrorBanner
          error={
            new ApiError(404, {
              code: 'not_found',
              title: 'Not Found',
              detail: "Route 'PUT /api/v1/projects/demo/data-sources/' was not found.",
            })
          }
        />
      </I18nProvider>,
    );
    const text = screen.getByRole('alert').textContent ?? '';
    expect(text).toContain("API の経路 'PUT /api/v1/projects/demo/data-sources/' が見つかりません。");
    expect(text).not.toContain('was not found');
  });
});
