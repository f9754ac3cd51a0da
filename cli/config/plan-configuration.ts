/** Plans the `variables` and `secrets` keys: per environment, one value per name. */
import { secretPath, variablePath } from './management-api.ts';
import type { Change, PlanInput, PlannedWrites, PlannerResult } from './plan-types.ts';
import { envValue, writeOnlyValue } from './write-only.ts';

export function planVariables({ config, state }: PlanInput): PlannerResult {
  const planned: PlannedWrites[] = [];
  for (const [environmentId, variables] of Object.entries(config.variables)) {
    for (const [name, value] of Object.entries(variables)) {
      const current = state.variables.get(environmentId)?.get(name);
      const change: Change = current === undefined ? 'create' : current === value ? 'unchanged' : 'update';
      planned.push({
        resource: {
          kind: 'variable',
          id: `${environmentId}.${name}`,
          filePath: ['variables', environmentId, name],
          change,
          fields:
            change === 'create'
              ? [{ kind: 'added', path: [], after: value }]
              : change === 'update'
                ? [{ kind: 'changed', path: [], before: current, after: value }]
                : [],
          writeOnly: [],
        },
        writes: [
          {
            phase: 'variables',
            step: {
              path: variablePath(environmentId, name),
              body: { value },
              guard: { field: 'value', expected: current },
            },
          },
        ],
      });
    }
  }
  return { planned, problems: [] };
}

/** A secret is sent whenever its variable is set: its stored value cannot be read to compare. */
export function planSecrets({ config, state, env }: PlanInput): PlannerResult {
  const planned: PlannedWrites[] = [];
  for (const [environmentId, secrets] of Object.entries(config.secrets)) {
    for (const [name, { fromEnv }] of Object.entries(secrets)) {
      const exists = state.secrets.get(environmentId)?.has(name) ?? false;
      const value = envValue(env, fromEnv);
      const writeOnly = writeOnlyValue([], fromEnv, value, exists);
      planned.push({
        resource: {
          kind: 'secret',
          id: `${environmentId}.${name}`,
          filePath: ['secrets', environmentId, name],
          change: !exists ? 'create' : writeOnly.status === 'set' ? 'update' : 'unchanged',
          fields: [],
          writeOnly: [writeOnly],
        },
        writes: [{ phase: 'secrets', step: { path: secretPath(environmentId, name), body: { value } } }],
      });
    }
  }
  return { planned, problems: [] };
}
