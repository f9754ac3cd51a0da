// @vitest-environment jsdom
/** The builder's panels for inputs, state and timers: what typed lines become in the definition. */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { I18nProvider } from '../../../i18n/index.tsx';
import type { ViewComponent, ViewQuery, VisualViewDefinition } from '../view-api.ts';
import { BuilderChoicesContext } from './builder-context.ts';
import { ComponentProperties } from './ComponentProperties.tsx';
import { InputProperties, textToOptions } from './InputProperties.tsx';
import { QueriesEditor } from './QueriesEditor.tsx';
import { StateTimersEditor, textToTimers } from './StateTimersEditor.tsx';

afterEach(cleanup);

describe('lines to definitions', () => {
  it('reads choices with typed values and timers with the 5 s floor', () => {
    expect(textToOptions('1 | One\ntrue | Yes\npaid\n\n')).toEqual([
      { value: 1, label: 'One' },
      { value: true, label: 'Yes' },
      { value: 'paid', label: 'paid' },
    ]);
    expect(textToTimers('30 | stats, orders\n2 | fast\n10 |\nx | q')).toEqual([
      { everySeconds: 30, queries: ['stats', 'orders'] },
      { everySeconds: 5, queries: ['fast'] },
      { everySeconds: 5, queries: ['q'] },
    ]);
  });
});

describe('panels', () => {
  it('an input becomes a select with static choices, then loses them as a checkbox', () => {
    let current = { id: 'i1', type: 'input', inputType: 'text' } as Extract<ViewComponent, { type: 'input' }>;
    const { rerender } = render(
      <I18nProvider>
        <InputProperties component={current} onChange={(next) => (current = next)} />
      </I18nProvider>,
    );
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'select' } });
    expect(current).toEqual({ id: 'i1', type: 'input', inputType: 'select', options: [] });
    rerender(
      <I18nProvider>
        <InputProperties component={current} onChange={(next) => (current = next)} />
      </I18nProvider>,
    );
    fireEvent.change(screen.getByLabelText(/^Choices \(value/), { target: { value: 'a | A\nb | B' } });
    expect(current.options).toEqual([
      { value: 'a', label: 'A' },
      { value: 'b', label: 'B' },
    ]);
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'checkbox' } });
    expect(current).toEqual({ id: 'i1', type: 'input', inputType: 'checkbox' });
  });

  it('state and timer lines go into the definition and leave it when emptied', () => {
    let current: VisualViewDefinition = {
      kind: 'visual',
      parameters: [],
      queries: [],
      layout: { id: 'root', type: 'grid', columns: 1, children: [] },
    };
    render(
      <I18nProvider>
        <StateTimersEditor definition={current} onChange={(next) => (current = next)} />
      </I18nProvider>,
    );
    fireEvent.change(screen.getByLabelText(/^State variables/), { target: { value: 'count: 0' } });
    expect(current.state).toEqual({ count: '0' });
    fireEvent.change(screen.getByLabelText(/^Timers/), { target: { value: '30 | stats' } });
    expect(current.timers).toEqual([{ everySeconds: 30, queries: ['stats'] }]);
    fireEvent.change(screen.getByLabelText(/^Timers/), { target: { value: '' } });
    expect('timers' in current).toBe(false);
  });
});

describe('inline edit panel', () => {
  it('makes a column editable through an action with row and value arguments, and keeps it when the columns are retyped', () => {
    let current = {
      id: 't1',
      type: 'table',
      query: 'q',
      columns: [{ field: 'id' }, { field: 'status', label: 'Status' }],
    } as Extract<ViewComponent, { type: 'table' }>;
    const panel = () => (
      <I18nProvider>
        <BuilderChoicesContext.Provider
          value={{ actions: [{ id: 'set-status', name: 'Set status' }], views: [], queries: ['q'] }}
        >
          <ComponentProperties component={current} onChange={(next) => (current = next as typeof current)} />
        </BuilderChoicesContext.Provider>
      </I18nProvider>
    );
    const { rerender } = render(panel());
    fireEvent.change(screen.getByLabelText('Editable column'), { target: { value: 'status' } });
    fireEvent.click(screen.getByRole('button', { name: 'Make a column editable' }));
    expect(current.columns?.[1]).toEqual({
      field: 'status',
      label: 'Status',
      edit: { actionId: '', arguments: {} },
    });
    rerender(panel());
    const group = screen.getByRole('group', { name: 'Status' });
    fireEvent.change(within(group).getByLabelText('Saved through action'), {
      target: { value: 'set-status' },
    });
    rerender(panel());
    fireEvent.change(within(group).getByLabelText(/^Arguments/), {
      target: { value: 'order_id: row.id\nstatus: value' },
    });
    rerender(panel());
    fireEvent.change(within(group).getByLabelText('Edited as'), { target: { value: 'select' } });
    rerender(panel());
    fireEvent.change(within(group).getByLabelText(/^Choices \(value/), {
      target: { value: 'paid | Paid\nshipped' },
    });
    expect(current.columns?.[1]?.edit).toEqual({
      actionId: 'set-status',
      arguments: { order_id: 'row.id', status: 'value' },
      inputType: 'select',
      options: [
        { value: 'paid', label: 'Paid' },
        { value: 'shipped', label: 'shipped' },
      ],
    });
    // Retyping the column lines keeps the edit of the column that is still there.
    rerender(panel());
    fireEvent.change(screen.getByLabelText(/^Columns/), { target: { value: 'status | State\nid' } });
    expect(current.columns).toEqual([
      { field: 'status', label: 'State', edit: expect.objectContaining({ actionId: 'set-status' }) },
      { field: 'id' },
    ]);
    rerender(panel());
    fireEvent.click(screen.getByRole('button', { name: 'Stop editing State inline' }));
    expect(current.columns).toEqual([{ field: 'status', label: 'State' }, { field: 'id' }]);
  });
});

describe('server paging total count', () => {
  it('sets and clears paging.totalCount of a query', () => {
    let queries: ViewQuery[] = [
      {
        id: 'q',
        actionId: 'list',
        arguments: {},
        runOn: 'load',
        paging: { limitParameter: 'limit', offsetParameter: 'offset', pageSize: 20 },
      },
    ];
    const panel = () => (
      <I18nProvider>
        <QueriesEditor queries={queries} onChange={(next) => (queries = next)} />
      </I18nProvider>
    );
    const { rerender } = render(panel());
    fireEvent.change(screen.getByLabelText(/^Total count/), { target: { value: 'rows[0]?.total_count' } });
    expect(queries[0]!.paging).toEqual({
      limitParameter: 'limit',
      offsetParameter: 'offset',
      pageSize: 20,
      totalCount: 'rows[0]?.total_count',
    });
    rerender(panel());
    fireEvent.change(screen.getByLabelText(/^Total count/), { target: { value: '' } });
    expect(queries[0]!.paging).toEqual({ limitParameter: 'limit', offsetParameter: 'offset', pageSize: 20 });
  });
});
