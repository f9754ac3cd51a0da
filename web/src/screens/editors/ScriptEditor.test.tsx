// @vitest-environment jsdom
/**
 * The script editor: a JavaScript code field of a kind's descriptor opens it with line numbers and
 * the actions the script may call (not those reserved for another JavaScript action); choosing one
 * inserts a call; a transformer and the "only from JavaScript action" choice reach the body.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { I18nProvider } from '../../i18n/index.tsx';
import { ActionFields } from './ActionFields.tsx';
import { actionBody, actionDraftOf, emptyActionDraft } from './action-draft.ts';
import type { FormField } from './connector-kinds.ts';
import { callableActions } from './ScriptEditor.tsx';

afterEach(cleanup);

const fields: FormField[] = [
  {
    name: 'code',
    type: 'code',
    language: 'javascript',
    required: true,
    label: { en: 'Script', ja: 'スクリプト' },
  },
];

const projectActions = [
  { id: 'refund', name: 'Refund', parameters: [{ name: 'orderId' }, { name: 'amount' }] },
  {
    id: 'secret-step',
    name: 'Secret step',
    permission: { mode: 'javascript_action', javascriptActionId: 'other' },
  },
  {
    id: 'mine-only',
    name: 'Mine only',
    permission: { mode: 'javascript_action', javascriptActionId: 'chain' },
  },
  { id: 'chain', name: 'The script itself' },
];

let seen: Record<string, unknown> = {};
function Harness({ language }: { language: 'en' | 'ja' }) {
  const [values, setValues] = useState<Record<string, unknown>>({ code: 'return 1;\n' });
  seen = values;
  return (
    <I18nProvider language={language}>
      <ActionFields
        fields={fields}
        values={values}
        errors={{}}
        onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
        callable={callableActions(projectActions, 'chain')}
      />
    </I18nProvider>
  );
}

describe('the script editor', () => {
  it('lists the actions the script may call and inserts a call of the chosen one', () => {
    render(<Harness language="en" />);
    const editor = screen.getByLabelText(/Script/) as HTMLTextAreaElement;
    expect(editor.className).toContain('mono');
    const list = screen.getByRole('complementary', { name: 'Actions this script may call' });
    const ids = [...list.querySelectorAll('button')].map((b) => b.textContent);
    expect(ids).toEqual(['refund', 'mine-only']);
    editor.setSelectionRange(0, 0);
    fireEvent.click(screen.getByRole('button', { name: 'refund' }));
    expect(seen.code).toBe('await actions.run("refund", { orderId: null, amount: null })return 1;\n');
  });

  it('indents with Tab instead of leaving the field', () => {
    render(<Harness language="en" />);
    const editor = screen.getByLabelText(/Script/) as HTMLTextAreaElement;
    editor.setSelectionRange(0, 0);
    fireEvent.keyDown(editor, { key: 'Tab' });
    expect(seen.code).toBe('  return 1;\n');
  });

  it('speaks Japanese', () => {
    render(<Harness language="ja" />);
    expect(screen.getByRole('complementary', { name: 'このスクリプトが呼び出せるアクション' })).toBeTruthy();
  });
});

describe('the action draft', () => {
  it('keeps a transformer and the JavaScript action of the permission', () => {
    const draft = actionDraftOf({
      id: 'inner',
      name: 'Inner',
      kind: 'sql',
      dataSourceId: 'db',
      statements: [{ title: 'A', sql: 'SELECT 1' }],
      permission: { mode: 'javascript_action', javascriptActionId: 'chain' },
      transformer: { script: 'return result.length;', timeLimitMs: 800 },
    });
    expect(draft.rest).toEqual({});
    const built = actionBody(draft);
    expect(built.ok && built.body).toMatchObject({
      permission: { mode: 'javascript_action', javascriptActionId: 'chain' },
      transformer: { script: 'return result.length;', timeLimitMs: 800 },
    });
    const none = actionBody({ ...emptyActionDraft(), id: 'x', transformerScript: '  ' });
    expect(none.ok && 'transformer' in none.body).toBe(false);
  });
});
