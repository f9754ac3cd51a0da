/** The save-time checks of a view, one rule at a time (shared/domain/views/validate-view.ts). */
import { describe, expect, it } from 'vitest';
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
