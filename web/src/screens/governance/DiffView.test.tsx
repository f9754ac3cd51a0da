// @vitest-environment jsdom
/** The diff view over the server's own field-level diff (diffDefinitions) of two action versions. */
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { diffDefinitions } from '../../../../shared/domain/versions.ts';
import { I18nProvider } from '../../i18n/index.tsx';
import type { DefinitionChange } from './api.ts';
import { DiffView } from './DiffView.tsx';

afterEach(cleanup);

const v1 = {
  id: 'find-orders',
  name: 'Find orders',
  kind: 'sql',
  dataSourceId: 'demo',
  parameters: [{ name: 'limit', kind: 'number', default: 20 }],
  statements: [{ title: 'Orders', sql: 'SELECT id, total\nFROM orders\nLIMIT {{ limit }}' }],
};
const v2 = {
  ...v1,
  name: 'Find recent orders',
  review: { required: true },
  statements: [
    {
      title: 'Orders',
      sql: "SELECT id, total\nFROM orders\nWHERE ordered_at > now() - interval '7 days'\nLIMIT {{ limit }}",
    },
  ],
};

function renderDiff(changes: DefinitionChange[], language: 'en' | 'ja' = 'en') {
  return render(
    <I18nProvider language={language}>
      <DiffView changes={changes} from={1} to={2} />
    </I18nProvider>,
  );
}

describe('version diff view', () => {
  it('shows each changed field with before and after, and marks the changed SQL line', () => {
    const changes = diffDefinitions(v1, v2) as DefinitionChange[];
    expect(changes.map((c) => c.path).sort()).toEqual(['name', 'review', 'statements[0].sql']);
    renderDiff(changes);
    const view = screen.getByRole('region', { name: 'Changes from version 1 to 2' });

    const name = within(view).getByRole('region', { name: 'name' });
    expect(name.querySelector('[data-side="before"]')!.textContent).toBe('Before: Find orders\n');
    expect(name.querySelector('[data-side="after"]')!.textContent).toBe('After: Find recent orders\n');

    const sql = within(view).getByRole('region', { name: 'statements[0].sql' });
    const added = [...sql.querySelectorAll('[data-side="after"] .diff-line-added')].map(
      (line) => line.textContent,
    );
    expect(added).toEqual(["WHERE ordered_at > now() - interval '7 days'\n"]);
    expect(sql.querySelectorAll('[data-side="before"] .diff-line-removed')).toHaveLength(0);

    // A field that only the new version has: the old side says so instead of showing nothing.
    const review = within(view).getByRole('region', { name: 'review' });
    expect(review.querySelector('[data-side="before"]')!.textContent).toBe('(not set: added)');
    expect(review.querySelector('[data-side="after"]')!.textContent).toContain('"required": true');
  });

  it('says so when two versions do not differ (in Japanese)', () => {
    renderDiff(diffDefinitions(v1, structuredClone(v1)) as DefinitionChange[], 'ja');
    expect(screen.getByText('バージョン 1 と 2 に違いはありません。')).toBeTruthy();
  });
});
