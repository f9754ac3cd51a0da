/** Every `{{ reference }}` an action's texts contain. */
import type { ActionInput } from './definitions/action.ts';
import { referencesIn } from './template.ts';

export function referencesOfAction(action: ActionInput): Set<string> {
  const texts: string[] = [];
  if (action.kind === 'sql') texts.push(...action.statements.map((s) => s.sql));
  else {
    texts.push(action.path, ...action.headers.map((h) => h.value), ...action.query.map((q) => q.value));
    const body = action.body;
    if (body.type === 'json') texts.push(body.json);
    if (body.type === 'raw') texts.push(body.raw);
    if (body.type === 'graphql' && body.variables) texts.push(body.variables);
    if (body.type === 'form-data' || body.type === 'x-www-form-urlencoded')
      texts.push(...body.fields.map((f) => f.value));
  }
  return new Set(texts.flatMap(referencesIn));
}
