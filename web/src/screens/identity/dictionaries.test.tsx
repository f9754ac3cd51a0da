/**
 * The four areas' dictionaries: every literal key their screens use exists in English and in
 * Japanese, every dynamic family (`scheduling.runStatus.${status}`) is complete for the values
 * the API sends, and the two languages have the same keys.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { editorsEn } from '../../i18n/editors.en.ts';
import { editorsJa } from '../../i18n/editors.ja.ts';
import { governanceEn } from '../../i18n/governance.en.ts';
import { governanceJa } from '../../i18n/governance.ja.ts';
import { identityEn } from '../../i18n/identity.en.ts';
import { identityJa } from '../../i18n/identity.ja.ts';
import { dictionaries } from '../../i18n/index.tsx';
import { schedulingEn } from '../../i18n/scheduling.en.ts';
import { schedulingJa } from '../../i18n/scheduling.ja.ts';

const screensDir = fileURLToPath(new URL('..', import.meta.url));
const areas = ['scheduling', 'governance', 'editors', 'identity'];

function sources(): string {
  return areas
    .flatMap((area) =>
      readdirSync(join(screensDir, area))
        .filter((name) => /\.tsx?$/.test(name) && !name.includes('.test.'))
        .map((name) => readFileSync(join(screensDir, area, name), 'utf8')),
    )
    .join('\n');
}

describe('dictionaries of the scheduling, governance, editor and identity screens', () => {
  it('every literal key used is in English and Japanese', () => {
    const used = new Set([...sources().matchAll(/\bt\(\s*'([a-zA-Z][\w.]+)'/g)].map((m) => m[1]!));
    expect(used.size).toBeGreaterThan(200);
    const missing = [...used].filter((key) => !(key in dictionaries.en) || !(key in dictionaries.ja));
    expect(missing).toEqual([]);
  });

  it('dynamic key families cover every value the API sends', () => {
    const families: Record<string, string[]> = {
      'scheduling.runStatus': ['waiting', 'running', 'completed', 'cancelled', 'error'],
      'scheduling.reservationStatus': ['scheduled', 'running', 'completed', 'error', 'cancelled'],
      'scheduling.batchStatus': ['waiting', 'running', 'finished', 'cancelled'],
      'scheduling.rowStatus': ['waiting', 'running', 'success', 'failure'],
      'scheduling.weekday': ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
      'governance.reviewStatus': ['pending', 'approved', 'executed', 'rejected', 'cancelled', 'expired'],
      'governance.audit.outcome': ['succeeded', 'failed', 'refused'],
      'identity.role': ['admin', 'development_lead', 'developer', 'operations_lead', 'member'],
      'editors.variables': ['heading', 'none', 'set', 'saved', 'valueLabel'],
      'editors.secrets': ['heading', 'none', 'set', 'saved', 'valueLabel'],
    };
    const missing = Object.entries(families).flatMap(([prefix, values]) =>
      values
        .map((value) => `${prefix}.${value}`)
        .filter((key) => !(key in dictionaries.en) || !(key in dictionaries.ja)),
    );
    expect(missing).toEqual([]);
  });

  it('English and Japanese have the same keys, and the Japanese is not English copied', () => {
    const pairs = [
      [schedulingEn, schedulingJa],
      [governanceEn, governanceJa],
      [editorsEn, editorsJa],
      [identityEn, identityJa],
    ] as const;
    for (const [en, ja] of pairs) {
      expect(Object.keys(ja).sort()).toEqual(Object.keys(en).sort());
      const untranslated = Object.keys(en).filter((key) => en[key] === ja[key] && /[a-z]{4,}/.test(en[key]!));
      expect(untranslated.filter((key) => !/cron|EventBridge/.test(en[key]!))).toEqual([]);
    }
  });
});
