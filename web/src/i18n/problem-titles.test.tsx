import { describe, expect, it } from 'vitest';
import { statusOf } from '../../../shared/domain/errors.ts';
import { dictionaries } from './index.tsx';

describe('server error codes in the console', () => {
  it('every Problem Details code the server can answer has an English and a Japanese title', () => {
    const codes = Object.keys(statusOf);
    const missing = codes.flatMap((code) =>
      (['en', 'ja'] as const)
        .filter((language) => !dictionaries[language][`problem.${code}`])
        .map((language) => `${language}: problem.${code}`),
    );
    expect(missing).toEqual([]);
    expect(
      codes.filter((code) => dictionaries.ja[`problem.${code}`] === dictionaries.en[`problem.${code}`]),
    ).toEqual([]);
  });
});
