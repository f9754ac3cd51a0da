import { describe, expect, it } from 'vitest';
import type { VisualViewDefinition } from '../view-api.ts';
import { renameComponent, renameProblem, rewriteExpression } from './rename-component.ts';

const definition: VisualViewDefinition = {
  kind: 'visual',
  parameters: [],
  queries: [
    {
      id: 'search',
      actionId: 'search-orders',
      runOn: 'manual',
      arguments: { q: "components.form1.value.q + ' (components.form1.value)'" },
      transformer: 'result.rows.filter(r => r.id !== components?.form1.value.id)',
    },
  ],
  layout: {
    id: 'root',
    type: 'grid',
    columns: 1,
    children: [
      { id: 'form1', type: 'form', fields: [{ name: 'q', type: 'text' }], submit: [] },
      { id: 'note', type: 'text', content: 'Typed {{ components.form1.value.q }} in components.form1' },
      {
        id: 'go',
        type: 'button',
        label: "{{ components['form1'].value.q || 'components.form1' }}",
        events: [
          { type: 'runAction', actionId: 'ship', arguments: { id: '{{ components.form1.value.id }}' } },
        ],
      },
    ],
  },
} as VisualViewDefinition;

describe('renaming a component', () => {
  it('rewrites every reference and no string that contains the text', () => {
    const { definition: next, skipped } = renameComponent(definition, 'form1', 'search_form');
    expect(skipped).toEqual([]);
    expect(next.queries[0]!.arguments).toEqual({
      q: "components.search_form.value.q + ' (components.form1.value)'",
    });
    expect(next.queries[0]!.transformer).toBe(
      'result.rows.filter(r => r.id !== components?.search_form.value.id)',
    );
    const [form, note, go] = (next.layout as { children: Record<string, unknown>[] }).children;
    expect(form!.id).toBe('search_form');
    // Template text outside the holes is literal text.
    expect(note!.content).toBe('Typed {{ components.search_form.value.q }} in components.form1');
    expect(go!.label).toBe("{{ components['search_form'].value.q || 'components.form1' }}");
    expect(go!.events).toEqual([
      { type: 'runAction', actionId: 'ship', arguments: { id: '{{ components.search_form.value.id }}' } },
    ]);
    // The original is not changed (the builder keeps it for undo).
    expect((definition.layout as { children: { id: string }[] }).children[0]!.id).toBe('form1');
  });

  it('leaves template literal text, other components and shadowing parameters alone', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the expression holds a template literal
    expect(rewriteExpression('`components.form1 is ${components.form1.value}`', 'form1', 'f')).toBe(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the expression holds a template literal
      '`components.form1 is ${components.f.value}`',
    );
    expect(rewriteExpression('components.form10.value + components.form1x', 'form1', 'f')).toBe(
      'components.form10.value + components.form1x',
    );
    expect(rewriteExpression('rows.map(components => components.form1)', 'form1', 'f')).toBe(
      'rows.map(components => components.form1)',
    );
    expect(rewriteExpression('other.components.form1', 'form1', 'f')).toBe('other.components.form1');
  });

  it('checks the new id', () => {
    expect(renameProblem(definition.layout, 'form1', '1form')).toBe('pattern');
    expect(renameProblem(definition.layout, 'form1', 'with space')).toBe('pattern');
    expect(renameProblem(definition.layout, 'form1', 'note')).toBe('taken');
    expect(renameProblem(definition.layout, 'form1', 'form1')).toBeUndefined();
    expect(renameProblem(definition.layout, 'form1', 'search_form')).toBeUndefined();
  });
});

describe('renaming and the new expression fields', () => {
  it("rewrites an editable column's arguments and a query's total count", () => {
    const withEdit = {
      kind: 'visual',
      parameters: [],
      queries: [
        {
          id: 'q',
          actionId: 'list',
          arguments: {},
          runOn: 'load',
          paging: {
            limitParameter: 'limit',
            offsetParameter: 'offset',
            pageSize: 20,
            totalCount: 'components.t1.value?.n ?? rows.length',
          },
        },
      ],
      layout: {
        id: 'root',
        type: 'grid',
        columns: 1,
        children: [
          {
            id: 't1',
            type: 'table',
            query: 'q',
            columns: [
              {
                field: 'n',
                edit: { actionId: 'set', arguments: { id: 'row.id', by: 'components.t1.value.id' } },
              },
            ],
          },
        ],
      },
    } as VisualViewDefinition;
    const { definition: next, skipped } = renameComponent(withEdit, 't1', 'orders');
    expect(skipped).toEqual([]);
    expect(next.queries[0]!.paging?.totalCount).toBe('components.orders.value?.n ?? rows.length');
    const table = (next.layout as { children: { columns: { edit: { arguments: unknown } }[] }[] })
      .children[0]!;
    expect(table.columns[0]!.edit.arguments).toEqual({ id: 'row.id', by: 'components.orders.value.id' });
  });

  it('follows a renamed modal in the events that open and close it', () => {
    const withModal = {
      kind: 'visual',
      parameters: [],
      queries: [],
      layout: {
        id: 'root',
        type: 'grid',
        columns: 1,
        children: [
          {
            id: 'orders',
            type: 'table',
            value: '[]',
            rowClick: [{ type: 'openModal', modal: 'modal1' }],
          },
          {
            id: 'modal1',
            type: 'modal',
            children: [
              {
                id: 'close',
                type: 'button',
                label: 'Close',
                events: [
                  { type: 'closeModal', modal: 'modal1' },
                  { type: 'openModal', modal: 'other' },
                ],
              },
            ],
          },
        ],
      },
    } as unknown as VisualViewDefinition;
    const { definition: next } = renameComponent(withModal, 'modal1', 'edit_order');
    const [table, modal] = (next.layout as { children: Record<string, unknown>[] }).children;
    expect(table!.rowClick).toEqual([{ type: 'openModal', modal: 'edit_order' }]);
    expect(modal!.id).toBe('edit_order');
    expect((modal!.children as Record<string, unknown>[])[0]!.events).toEqual([
      { type: 'closeModal', modal: 'edit_order' },
      { type: 'openModal', modal: 'other' },
    ]);
    // The original is not changed (the builder keeps it for undo).
    expect(JSON.stringify(withModal)).not.toContain('edit_order');
  });
});
