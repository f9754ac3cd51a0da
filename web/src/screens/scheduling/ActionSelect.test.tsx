// @vitest-environment jsdom
/** The action picker of cron jobs, reservations and batches says which actions cannot be scheduled. */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ActionDefinition } from '../../api/types.ts';
import { I18nProvider, type Language } from '../../i18n/index.tsx';
import { ActionSelect } from './action-arguments.tsx';

afterEach(cleanup);

const actions = [
  { id: 'list-orders', name: 'List orders', kind: 'sql', parameters: [] },
  { id: 'refund', name: 'Refund', kind: 'sql', parameters: [], review: { required: true } },
] as unknown as ActionDefinition[];

const picker = (language: Language) =>
  render(
    <I18nProvider language={language}>
      <ActionSelect value="" onChange={() => {}} actions={actions} />
    </I18nProvider>,
  );

describe('ActionSelect', () => {
  it('offers review-gated actions only as disabled options and says why beside the field', () => {
    picker('en');
    const refund = screen.getByRole('option', { name: /Refund/ }) as HTMLOptionElement;
    expect(refund.disabled).toBe(true);
    expect(refund.textContent).toContain('needs a review before each run');
    expect((screen.getByRole('option', { name: /List orders/ }) as HTMLOptionElement).disabled).toBe(false);
    const select = screen.getByRole('combobox', { name: /Action/ });
    const hint = document.getElementById(select.getAttribute('aria-describedby')!.split(' ')[0]!);
    expect(hint?.textContent).toContain('cannot wait for an approval');
  });

  it('says it in Japanese', () => {
    picker('ja');
    expect(screen.getByRole('option', { name: /Refund/ }).textContent).toContain('実行ごとにレビューが必要');
  });
});
