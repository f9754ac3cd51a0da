import { describe, expect, it } from 'vitest';
import { DoguError } from '../../shared/domain/errors.ts';
import {
  jsonTemplateReferences,
  renderJsonTemplate,
  valueAsJson,
  valueAsText,
} from '../../shared/domain/json-template.ts';

const values: Record<string, unknown> = {
  limit: 10,
  name: 'Ann',
  on: true,
  none: null,
  big: 9007199254740993n,
  tags: ['a', 'b'],
  filter: { status: 'shipped', min: 5 },
  'vars.region': 'ap-northeast-1',
  'secrets.key': 's3cr3t-"key"',
  'currentUser.email': 'ann@example.com',
};
const resolve = (ref: string) => {
  if (!(ref in values)) throw new DoguError('bad_request', `Unknown reference '${ref}'.`);
  return values[ref];
};
const render = (template: string, extra: Record<string, unknown> = {}) =>
  renderJsonTemplate(template, (ref) => (ref in extra ? extra[ref] : resolve(ref)));

function failure(run: () => unknown): DoguError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DoguError);
    return error as DoguError;
  }
  throw new Error('expected a DoguError');
}

describe('renderJsonTemplate: a reference standing as a whole value becomes the value as JSON', () => {
  it.each([
    ['{"limit": {{ limit }}}', { limit: 10 }],
    ['{"name": {{name}}}', { name: 'Ann' }],
    ['{"on": {{ on }}}', { on: true }],
    ['{"none": {{ none }}}', { none: null }],
    ['{"tags": {{ tags }}}', { tags: ['a', 'b'] }],
    ['{"filter": {{ filter }}}', { filter: { status: 'shipped', min: 5 } }],
    ['[{{ limit }}, {{ name }}]', [10, 'Ann']],
    ['{{ filter }}', { status: 'shipped', min: 5 }],
    [
      '{"region": {{ vars.region }}, "by": {{ currentUser.email }}}',
      { region: 'ap-northeast-1', by: 'ann@example.com' },
    ],
    ['{\n  "a": {{ limit }},\n  "b": [ {{ on }} ]\n}', { a: 10, b: [true] }],
  ])('%s', (template, expected) => {
    expect(JSON.parse(render(template))).toEqual(expected);
  });

  it('keeps every digit of a bigint', () => {
    expect(render('{"id": {{ big }}}')).toBe('{"id": 9007199254740993}');
  });

  it('turns values without a JSON form into null', () => {
    expect(JSON.parse(render('{"a": {{ x }}}', { x: undefined }))).toEqual({ a: null });
    expect(JSON.parse(render('{"a": {{ x }}}', { x: Number.NaN }))).toEqual({ a: null });
  });
});

describe('renderJsonTemplate: a reference inside a string is inserted as escaped string content', () => {
  it.each([
    ['{"limit": "{{ limit }}"}', { limit: '10' }],
    ['{"q": "name:{{ name }} limit:{{limit}}"}', { q: 'name:Ann limit:10' }],
    ['{"none": "{{ none }}"}', { none: '' }],
    ['{"on": "{{ on }}"}', { on: 'true' }],
    ['{"tags": "{{ tags }}"}', { tags: '["a","b"]' }],
    ['{"{{ name }}": 1}', { Ann: 1 }],
    ['{"key": "Bearer {{ secrets.key }}"}', { key: 'Bearer s3cr3t-"key"' }],
  ])('%s', (template, expected) => {
    expect(JSON.parse(render(template))).toEqual(expected);
  });

  it('knows an escaped quote does not end the string', () => {
    expect(JSON.parse(render('{"a": "say \\"{{ name }}\\"", "b": {{ limit }}}'))).toEqual({
      a: 'say "Ann"',
      b: 10,
    });
  });

  it('knows an escaped backslash before a quote does end the string', () => {
    expect(JSON.parse(render('{"a": "dir\\\\", "b": {{ limit }}}'))).toEqual({ a: 'dir\\', b: 10 });
  });

  it('leaves text that only looks like a reference alone', () => {
    expect(JSON.parse(render('{"a": "{{ not a ref }}", "b": "{{1}}"}'))).toEqual({
      a: '{{ not a ref }}',
      b: '{{1}}',
    });
  });
});

describe('renderJsonTemplate: values cannot break out of their position', () => {
  const attacks = [
    '"}, "admin": true, "x": "',
    '", "admin": true, "x": "',
    '\\", "admin": true, "x": \\"',
    '\\',
    '\\\\"',
    'line1\nline2\r\n\t',
    '\u0000\u001f\u007f',
    '\u2028\u2029',
    'emoji 😀 and 日本語',
    '\ud800 lone surrogate',
    '{{ limit }}',
    '</script><script>alert(1)</script>',
    '1}, {"admin": true',
    'null, "admin": true',
  ];

  it.each(attacks)('inside a string: %j stays the string content', (attack) => {
    const output = render('{"name": "x{{ evil }}y", "role": "user"}', { evil: attack });
    expect(JSON.parse(output)).toEqual({ name: `x${attack}y`, role: 'user' });
  });

  it.each(attacks)('as a whole value: %j stays one string value', (attack) => {
    const output = render('{"name": {{ evil }}, "role": "user"}', { evil: attack });
    expect(JSON.parse(output)).toEqual({ name: attack, role: 'user' });
  });

  it('does not expand references inside a value', () => {
    expect(JSON.parse(render('{"a": {{ evil }}}', { evil: '{{ secrets.key }}' }))).toEqual({
      a: '{{ secrets.key }}',
    });
  });

  it('keeps object members of a value inside that value', () => {
    const output = render('{"filter": {{ evil }}, "role": "user"}', { evil: { role: 'admin' } });
    expect(JSON.parse(output)).toEqual({ filter: { role: 'admin' }, role: 'user' });
  });

  it('escapes control characters rather than inserting them', () => {
    const output = render('{"a": "{{ evil }}"}', { evil: 'x\ny' });
    expect(output).toBe('{"a": "x\\ny"}');
  });
});

describe('renderJsonTemplate: errors', () => {
  it.each([
    ['{"a": }', 'line 1, column 7'],
    ['{"a": 1,}', 'line 1, column 9'],
    ['[1,]', 'line 1, column 4'],
    ['{"a": 01}', 'line 1, column 8'],
    ['{"a": "\\x"}', 'line 1, column 8'],
    ['{"a": {{ limit }}1}', 'line 1, column 18'],
    ['{ {{ name }}: 1 }', 'line 1, column 3'],
    ['{"a": -{{ limit }}}', 'line 1, column 7'],
    ['{"a": 1}\n{"b": 2}', 'line 2, column 1'],
    ['', 'it ends too early'],
    ['{\n  "a": 1,\n  "b": ,\n}', "unexpected token ',' at line 3, column 8."],
    ['{"a": [1, 2', 'at the end'],
    ['{"a": "unterminated}', 'unterminated string at the end'],
    ['{"a": "tab\there"}', 'line 1, column 11'],
  ])('refuses the invalid template %j, saying where', (template, where) => {
    const error = failure(() => render(template));
    expect(error.code).toBe('bad_request');
    expect(error.message).toMatch(/^The JSON template is not valid JSON: /);
    expect(error.message).toContain(where);
  });

  it('never quotes a value in a parse error', () => {
    const error = failure(() => render('{"a": "{{ secrets.key }}", "b": }'));
    expect(error.message).not.toContain('s3cr3t');
  });

  it('checks the template before resolving anything', () => {
    let resolved = 0;
    expect(() =>
      renderJsonTemplate('{"a": {{ limit }}', () => {
        resolved++;
        return 1;
      }),
    ).toThrow(DoguError);
    expect(resolved).toBe(0);
  });

  it('names the text it renders', () => {
    const error = failure(() => renderJsonTemplate('{', resolve, { describe: 'The GraphQL variables' }));
    expect(error.message).toMatch(/^The GraphQL variables is not valid JSON/);
  });

  it('lets unknown references fail with the resolver error', () => {
    const error = failure(() => render('{"a": {{ nope }}}'));
    expect(error.message).toBe("Unknown reference 'nope'.");
  });
});

describe('jsonTemplateReferences', () => {
  it('lists the references in order, in and out of strings', () => {
    expect(jsonTemplateReferences('{"a": {{ limit }}, "b": "x{{ vars.region }}", "{{ name }}": 1}')).toEqual([
      'limit',
      'vars.region',
      'name',
    ]);
  });
});

describe('valueAsText and valueAsJson', () => {
  it.each([
    ['null', null, '', 'null'],
    ['undefined', undefined, '', 'null'],
    ['a string with a quote', 'a"b', 'a"b', '"a\\"b"'],
    ['a number', 1.5, '1.5', '1.5'],
    ['a boolean', false, 'false', 'false'],
    ['a bigint', 12345678901234567890n, '12345678901234567890', '12345678901234567890'],
    ['an object holding a bigint', { a: [1, 2n] }, '{"a":[1,"2"]}', '{"a":[1,"2"]}'],
  ])('%s', (_label, value, text, json) => {
    expect(valueAsText(value)).toBe(text);
    expect(valueAsJson(value)).toBe(json);
  });
});
