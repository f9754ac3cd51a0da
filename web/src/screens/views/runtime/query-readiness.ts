/**
 * Whether a query may run without the viewer asking for it (on load, on refresh, or once the
 * values it waits for are there): a query with no action, or whose action has a required
 * argument without a default that binds to nothing, waits instead of sending a run the server can
 * only refuse with a 422 (issue 29: a new query made two 422s on first use). A run the viewer
 * starts (a button, a submit) is sent as it is, so the server's own message explains what is missing.
 */
import type { Parameter } from '../../../api/types.ts';
import { ExpressionError } from '../expressions/evaluate.ts';

/** No value: nothing bound, nothing typed. `0`, `false` and `[]` are values. */
export function isEmptyArgument(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** The required arguments (without a default) that are still empty, in the action's order. */
export function missingArguments(parameters: readonly Parameter[], args: Record<string, unknown>): string[] {
  return parameters
    .filter((p) => p.required && (p as { default?: unknown }).default === undefined)
    .filter((p) => isEmptyArgument(args[p.name]))
    .map((p) => p.name);
}

/**
 * An argument that reads through an empty value (`components.table1.value.id` before a row is
 * selected) is not an error of the expression yet: the query waits for that value.
 */
export function isNotThereYet(error: unknown): boolean {
  return error instanceof ExpressionError && error.code === 'emptyRead';
}
