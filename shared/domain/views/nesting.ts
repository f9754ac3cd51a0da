/**
 * Components and events nest; schema checks recurse. A body nested far deeper than any valid view
 * could be is refused before it is parsed, so recursion depth stays bounded whatever is sent.
 */
import { viewLimits } from '../definitions/view.ts';
import { DoguError } from '../errors.ts';

/** JSON levels a valid view can use: a component level costs at most 4 (children array, tab, …). */
export const maxBodyNesting = viewLimits.maxDepth * 4 + 40;

export function refuseDeepNesting(body: unknown): void {
  const stack: [unknown, number][] = [[body, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (depth > maxBodyNesting) {
      throw new DoguError(
        'invalid_definition',
        `The view nests more than ${maxBodyNesting} JSON levels; components may nest at most ${viewLimits.maxDepth} deep.`,
        {
          errors: [
            {
              pointer: '#/definition/layout',
              detail: `nests deeper than ${viewLimits.maxDepth} components`,
              ja: `コンポーネントの入れ子が ${viewLimits.maxDepth} 段を超えています`,
            },
          ],
        },
      );
    }
    if (typeof value === 'object' && value !== null) {
      for (const child of Object.values(value)) stack.push([child, depth + 1]);
    }
  }
}
