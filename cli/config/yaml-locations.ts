/** Line and column of a path in a YAML document, so every problem can point at its place in the file. */
import {
  type Document,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type LineCounter,
  type Node,
  type Scalar,
} from 'yaml';
import type { Path } from './path.ts';

export interface Location {
  line: number;
  column: number;
}

export interface YamlLocator {
  /**
   * Where the value at `path` starts; `at: 'key'` points at the key of a map entry instead (for an
   * unknown field). A path that does not exist (a missing field) gives the nearest enclosing node.
   */
  locate(path: Path, at?: 'value' | 'key', within?: Location): Location | undefined;
}

/**
 * `within`: a line and column inside the string value at `path` (a syntax error in a view
 * expression); the answer is then that character's place in the file when the scalar's source
 * is the value itself (plain or quoted without escapes), else where the value starts.
 */
export function yamlLocator(document: Document, lineCounter: LineCounter, source = ''): YamlLocator {
  const position = (offset: number): Location => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  return {
    locate(path, at = 'value', within) {
      let node: unknown = document.contents;
      let found: Node | undefined = isContentNode(node) ? node : undefined;
      let resolved = 0;
      for (const [i, segment] of path.entries()) {
        const last = i === path.length - 1;
        if (isMap(node)) {
          const pair = node.items.find(
            // `2024:` is a number to YAML and a string to the parsed file: compare as text.
            (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment),
          );
          if (!pair) break;
          if (last && at === 'key' && isContentNode(pair.key)) return rangeStart(pair.key, position);
          node = pair.value;
        } else if (isSeq(node) && typeof segment === 'number') {
          node = node.items[segment];
        } else {
          break;
        }
        if (!isContentNode(node)) break;
        found = node;
        resolved++;
      }
      if (within && resolved === path.length && isScalar(found) && found.range) {
        const inner = innerOffset(found, source, within);
        if (inner !== undefined) return position(inner);
      }
      return found ? rangeStart(found, position) : undefined;
    },
  };
}

/** The file offset of `within` in a string scalar written as its value (no folding, no escapes). */
function innerOffset(node: Scalar, source: string, within: Location): number | undefined {
  if (typeof node.value !== 'string' || !node.range) return undefined;
  const quote = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE' ? 1 : 0;
  if (!quote && node.type !== 'PLAIN') return undefined;
  const raw = source.slice(node.range[0], node.range[1]);
  if (raw.slice(quote, raw.length - quote) !== node.value) return undefined;
  const lines = node.value.split('\n');
  if (within.line < 1 || within.line > lines.length) return undefined;
  const lineStart = lines.slice(0, within.line - 1).reduce((sum, line) => sum + line.length + 1, 0);
  return node.range[0] + quote + lineStart + within.column - 1;
}

const isContentNode = (value: unknown): value is Node => isMap(value) || isSeq(value) || isScalar(value);

function rangeStart(node: Node, position: (offset: number) => Location): Location | undefined {
  return node.range ? position(node.range[0]) : undefined;
}
