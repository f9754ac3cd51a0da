/**
 * Choosing an action and filling its arguments, shared by cron jobs and reservations: the core's
 * generated parameter inputs (ParameterInput) with the definition the environment runs.
 */
import { useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import { apiPaths } from '../../api/paths.ts';
import type { ActionDefinition, ListOf, Parameter } from '../../api/types.ts';
import { useWorkspace } from '../../app/workspace.tsx';
import { Field, useAsync } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { type LoadedAction, loadAction } from '../actions/load-action.ts';
import { ParameterGrid } from '../actions/ParameterGrid.tsx';
import { type Drafts, initialDrafts, toArguments } from '../actions/parameter-values.ts';

/** Parameters with stored values as their defaults, so the inputs start from what was saved. */
export function withStoredValues(parameters: Parameter[], stored: Record<string, unknown>): Parameter[] {
  return parameters.map((parameter) =>
    parameter.name in stored ? ({ ...parameter, default: stored[parameter.name] } as Parameter) : parameter,
  );
}

export function useActionList() {
  const workspace = useWorkspace();
  return useAsync(
    () => api.get<ListOf<ActionDefinition>>(apiPaths.actions(workspace.projectId)).then((list) => list.data),
    [workspace.projectId],
  );
}

/** The chosen action's definition and the argument drafts, reset when the action changes. */
export function useActionArguments(actionId: string, stored: Record<string, unknown> | undefined) {
  const workspace = useWorkspace();
  const loaded = useAsync<LoadedAction | undefined>(
    () =>
      actionId
        ? loadAction(workspace.projectId, workspace.environmentId, actionId)
        : Promise.resolve(undefined),
    [workspace.projectId, workspace.environmentId, actionId],
  );
  const [drafts, setDrafts] = useState<Drafts>({});
  // biome-ignore lint/correctness/useExhaustiveDependencies: stored values seed the drafts once per loaded action.
  useEffect(() => {
    if (!loaded.data) return;
    const parameters = loaded.data.action.parameters;
    setDrafts(initialDrafts(stored && actionId ? withStoredValues(parameters, stored) : parameters));
  }, [loaded.data]);
  const build = () =>
    loaded.data ? toArguments(loaded.data.action.parameters, drafts) : { arguments: {}, errors: {} };
  return { loaded, drafts, setDrafts, build };
}

export function ActionSelect({
  value,
  onChange,
  error,
  actions,
}: {
  value: string;
  onChange(actionId: string): void;
  error?: string | undefined;
  actions: ActionDefinition[] | undefined;
}) {
  const t = useT();
  // Cron jobs, reservations and batches run without a person to wait for: the server refuses an
  // action that needs a review before each run, so the picker says so instead of offering it.
  const gated = (actions ?? []).filter((action) => action.review?.required);
  return (
    <Field
      label={t('scheduling.field.action')}
      required
      error={error}
      hint={gated.length > 0 ? t('scheduling.field.reviewGatedHint') : undefined}
    >
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{t('scheduling.field.chooseAction')}</option>
        {(actions ?? []).map((action) => (
          <option key={action.id} value={action.id} disabled={Boolean(action.review?.required)}>
            {action.name} ({action.id})
            {action.review?.required ? ` — ${t('scheduling.field.reviewGated')}` : ''}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function ArgumentInputs({
  loaded,
  drafts,
  setDrafts,
  errors,
}: {
  loaded: LoadedAction | undefined;
  drafts: Drafts;
  setDrafts(update: (drafts: Drafts) => Drafts): void;
  errors: Record<string, string>;
}) {
  const t = useT();
  if (!loaded) return null;
  const parameters = loaded.action.parameters;
  if (parameters.length === 0) return <p className="muted">{t('action.noParameters')}</p>;
  return (
    <fieldset className="arguments">
      <legend className="field-label">{t('scheduling.field.arguments')}</legend>
      <ParameterGrid
        parameters={parameters}
        drafts={drafts}
        setDrafts={setDrafts}
        errors={errors}
        masterData={loaded.masterData}
      />
    </fieldset>
  );
}
