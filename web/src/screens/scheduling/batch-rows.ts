/**
 * The form-rows editor's cells (text as typed) → the JSON rows the batch API takes. Numbers and
 * booleans are sent as such when they read as one; lists split on commas; empty cells are left
 * out so the parameter's default applies. The server checks every cell and names the bad ones.
 */
import { parseExactJson } from '../../../../shared/domain/exact-numbers.ts';
import type { Parameter } from '../../api/types.ts';

export type RowCells = Record<string, string>;

/** Parameters a batch row can fill (system values are set by the server). */
export const fillable = (parameters: Parameter[]) =>
  parameters.filter((p) => p.kind !== 'system' && p.kind !== 'file');

export function cellValue(parameter: Parameter, text: string): unknown {
  const trimmed = text.trim();
  switch (parameter.kind) {
    case 'number': {
      const value = Number(trimmed);
      return trimmed !== '' && Number.isFinite(value) ? value : text;
    }
    case 'boolean':
      return trimmed === 'true' ? true : trimmed === 'false' ? false : text;
    case 'array':
    case 'tuple': {
      const items = trimmed.split(',').map((item) => item.trim());
      const numeric = parameter.kind === 'array' ? parameter.itemKind === 'number' : false;
      return items.map((item) =>
        numeric && item !== '' && Number.isFinite(Number(item)) ? Number(item) : item,
      );
    }
    case 'json': {
      // Decision 0025: JSON whose numbers would be rounded stays text (refused by the parameter's check).
      const parsed = parseExactJson(trimmed);
      return parsed.ok ? parsed.value : text;
    }
    default:
      return text;
  }
}

export function rowsOf(parameters: Parameter[], cells: RowCells[]): Record<string, unknown>[] {
  return cells.map((row) => {
    const out: Record<string, unknown> = {};
    for (const parameter of fillable(parameters)) {
      const text = row[parameter.name] ?? '';
      if (text.trim() !== '') out[parameter.name] = cellValue(parameter, text);
    }
    return out;
  });
}

/** `#/rows/3/amount` → { row: 3, name: 'amount' }. */
export function rowErrorOf(pointer: string): { row: number; name: string } | undefined {
  const match = /^#?\/rows\/(\d+)(?:\/([^/]+))?/.exec(pointer);
  return match ? { row: Number(match[1]), name: match[2] ?? '' } : undefined;
}
