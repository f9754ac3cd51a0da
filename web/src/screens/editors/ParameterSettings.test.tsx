// @vitest-environment jsdom
/**
 * A parameter's default, choices, bounds, pattern and format are form fields of the action editor,
 * not raw JSON: every demo action's parameters go through the editor's draft unchanged, the fields
 * shown fit the kind, typed values become the definition's members, and the server's refusal of
 * one shows beside it.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { demoHttpActions, demoSqlActions } from '../../../../local/demo-definitions.ts';
import { demoViewActions } from '../../../../local/demo-views.ts';
import { I18nProvider } from '../../i18n/index.tsx';
import { actionBody, actionDraftOf } from './action-draft.ts';
import { ParameterSettingsFields } from './ParameterSettingsFields.tsx';
import { emptySettings, type ParameterSettings, settingsMembers } from './parameter-settings.ts';

afterEach(cleanup);

describe('parameter settings as form fields', () => {
  it('keeps every demo parameter as it was through the draft, with the common settings out of the JSON', () => {
    for (const action of [...demoSqlActions, ...demoHttpActions, ...demoViewActions]) {
      const draft = actionDraftOf(action as unknown as Record<string, unknown>);
      const body = actionBody(draft);
      if (!body.ok) throw new Error(`parameter ${body.parameter} of ${action.id}`);
      expect(body.body.parameters, action.id).toEqual(action.parameters);
      for (const parameter of draft.parameters) {
        const extra = parameter.extra ? JSON.parse(parameter.extra) : {};
        for (const member of ['default', 'min', 'max', 'pattern'])
          if (typeof extra[member] !== 'object')
            expect(extra, `${action.id}.${parameter.name}`).not.toHaveProperty(member);
      }
    }
    const find = actionDraftOf(
      demoSqlActions.find((a) => a.id === 'find-orders') as unknown as Record<string, unknown>,
    );
    const statuses = find.parameters.find((p) => p.name === 'statuses')!;
    expect(statuses.settings.choices.split('\n')).toContain('paid | Paid');
  });

  it('shows the fields of the kind, turns what is typed into members, and shows a refusal beside its field', () => {
    let settings: ParameterSettings = emptySettings;
    function Harness({ kind }: { kind: string }) {
      const [value, setValue] = useState(emptySettings);
      settings = value;
      return (
        <I18nProvider language="en">
          <ParameterSettingsFields
            index={0}
            kind={kind}
            settings={value}
            errors={{ 'parameters/0/max': 'must be at least 1' }}
            onChange={(patch) => setValue((v) => ({ ...v, ...patch }))}
          />
        </I18nProvider>
      );
    }
    const { unmount } = render(<Harness kind="number" />);
    fireEvent.change(screen.getByLabelText('Default of parameter 1'), { target: { value: '20' } });
    fireEvent.change(screen.getByLabelText('Minimum of parameter 1'), { target: { value: '1' } });
    fireEvent.change(screen.getByLabelText(/^Maximum of parameter 1/), { target: { value: '0' } });
    fireEvent.change(screen.getByLabelText('Choices of parameter 1'), {
      target: { value: '10\n20 | Twenty' },
    });
    expect(screen.queryByLabelText('Pattern of parameter 1')).toBeNull();
    expect(settingsMembers('number', settings)).toEqual({
      default: 20,
      min: 1,
      max: 0,
      choices: [
        { value: 10, label: '10' },
        { value: 20, label: 'Twenty' },
      ],
    });
    const max = screen.getByLabelText(/^Maximum of parameter 1/);
    expect(max.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(max.getAttribute('aria-describedby')!)?.textContent).toBe(
      'must be at least 1',
    );
    unmount();

    render(<Harness kind="text" />);
    fireEvent.change(screen.getByLabelText('Pattern of parameter 1'), { target: { value: '^[A-Z]{3}$' } });
    expect(screen.queryByLabelText('Minimum of parameter 1')).toBeNull();
    expect(settingsMembers('text', settings)).toEqual({ pattern: '^[A-Z]{3}$' });
  });
});
