/** Line and column of a path in a YAML document, so every problem can point at its place in the file. */
import { type Document, isMap, isPair, isScalar, isSeq, type LineCounter, type Node } from 'yaml';
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
  locate(path: Path, at?: 'value' | 'key'): Location | undefined;
}

export function yamlLocator(document: Document, lineCounter: LineCounter): YamlLocator {
  const position = (offset: number): Location => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  return {
    locate(path, at = 'value') {
      let node: unknown = document.contents;
      let found: Node | undefined = isContentNode(node) ? node : undefined;
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
      }
      return found ? rangeStart(found, position) : undefined;
    },
  };
}

const isContentNode = (value: unknown): value is Node => isMap(value) || isSeq(value) || isScalar(value);

function rangeStart(node: Node, position: (offset: number) => Location): Location | undefined {
  return node.range ? position(node.range[0]) : undefined;
}
