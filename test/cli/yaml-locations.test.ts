/** Places in a YAML file for problem messages (cli/config/yaml-locations.ts). */
import { describe, expect, it } from 'vitest';
import { LineCounter, parseDocument } from 'yaml';
import { yamlLocator } from '../../cli/config/yaml-locations.ts';

const locatorOf = (text: string) => {
  const lineCounter = new LineCounter();
  return yamlLocator(parseDocument(text, { lineCounter }), lineCounter, text);
};

describe('yaml locations', () => {
  const text = [
    'a:',
    '  plain: panel.args.id +',
    `  double: "'paid' +"`,
    "  single: 'it''s +'",
    '  escaped: "a\\tb +"',
    '  block: |',
    '    one',
    '    two +',
  ].join('\n');
  const locator = locatorOf(text);

  it('points inside a plain or quoted scalar written as its value', () => {
    expect(locator.locate(['a', 'plain'], 'value', { line: 1, column: 16 })).toEqual({ line: 2, column: 25 });
    expect(locator.locate(['a', 'double'], 'value', { line: 1, column: 9 })).toEqual({ line: 3, column: 20 });
  });

  it('falls back to where the value starts when the source is not the value itself', () => {
    // Escapes ('' and \t) and block scalars shift characters: the value's start is all that is sure.
    expect(locator.locate(['a', 'single'], 'value', { line: 1, column: 5 })).toEqual({ line: 4, column: 11 });
    expect(locator.locate(['a', 'escaped'], 'value', { line: 1, column: 4 })).toEqual({
      line: 5,
      column: 12,
    });
    expect(locator.locate(['a', 'block'], 'value', { line: 2, column: 5 })).toEqual({ line: 6, column: 10 });
    // A path that does not resolve gives the nearest node, never a place inside another value.
    expect(locator.locate(['a', 'missing'], 'value', { line: 1, column: 3 })).toEqual({ line: 2, column: 3 });
  });
});
