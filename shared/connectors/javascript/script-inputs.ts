/** What a script gets from its run: {{ references }} as literals, parameters, the caller. */
import type { EngineRun } from '../../domain/ports.ts';
import { referencePattern } from '../../domain/template.ts';

/**
 * `{{ name }}` becomes the value as a JavaScript literal (its JSON text), never spliced text:
 * `const id = {{ id }};` reads the bound value whatever it holds. Lines keep their numbers.
 */
export function embedReferences(code: string, values: Record<string, unknown>): string {
  return code.replace(referencePattern, (_match, name: string) => JSON.stringify(values[name] ?? null));
}

export function parametersOf(run: EngineRun): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const parameter of run.action.parameters) params[parameter.name] = run.values[parameter.name] ?? null;
  return params;
}

export function currentUserOf(values: Record<string, unknown>) {
  return {
    id: values['currentUser.id'],
    name: values['currentUser.name'],
    email: values['currentUser.email'],
  };
}
