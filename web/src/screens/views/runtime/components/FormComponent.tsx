/**
 * A form: an action's own parameters (the generated inputs of the action screen, reused) or the
 * definition's fields. On submit its values become `components.<id>.value` and the submit events
 * run (usually runAction with `components.<id>.value.<field>` arguments, then refresh).
 */
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { parseExactJson } from '../../../../../../shared/domain/exact-numbers.ts';
import { useSession } from '../../../../app/session.tsx';
import { Button, useAsync } from '../../../../components/index.ts';
import { useT } from '../../../../i18n/index.tsx';
import { ParameterInput } from '../../../actions/ParameterInput.tsx';
import { type Drafts, initialDrafts, toArguments } from '../../../actions/parameter-values.ts';
import { loadActionParameters, type ViewComponent } from '../../view-api.ts';
import { EventOutcomeView } from '../EventOutcomeView.tsx';
import { type EventOutcome, useViewRuntime } from '../runtime.tsx';
import { ViewProblem } from '../ViewProblem.tsx';

type Form = Extract<ViewComponent, { type: 'form' }>;
type Field = NonNullable<Form['fields']>[number];

export function FormComponent({ component }: { component: Form }) {
  return component.fromAction ? (
    <ActionForm component={component} actionId={component.fromAction} />
  ) : (
    <FieldsForm component={component} />
  );
}

function useSubmit(component: Form) {
  const runtime = useViewRuntime();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<EventOutcome>();
  const submit = async (values: Record<string, unknown>) => {
    runtime.setValue(component.id, values);
    setBusy(true);
    setOutcome(undefined);
    // The value is passed along too: the state update above is not rendered yet.
    setOutcome(await runtime.runEvents(component.submit, {}));
    setBusy(false);
  };
  return { busy, outcome, submit };
}

function ActionForm({ component, actionId }: { component: Form; actionId: string }) {
  const t = useT();
  const runtime = useViewRuntime();
  const { user } = useSession();
  const parameters = useAsync(
    () => loadActionParameters(runtime.projectId, actionId),
    [runtime.projectId, actionId],
  );
  const [drafts, setDrafts] = useState<Drafts>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { busy, outcome, submit } = useSubmit(component);
  if (parameters.error) return <ViewProblem error={parameters.error} where={component.id} />;
  if (!parameters.data) return <p className="muted small">{t('common.loading')}</p>;
  const list = parameters.data;
  const current = drafts ?? initialDrafts(list);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const { arguments: values, errors: problems } = toArguments(list, current);
    const messages = Object.fromEntries(Object.entries(problems).map(([k, e]) => [k, t(e.key, e.vars)]));
    setErrors(messages);
    if (Object.keys(messages).length === 0) void submit(values);
  };
  return (
    <form className="view-form" onSubmit={onSubmit} noValidate>
      <div className="param-grid">
        {list.map((parameter) => (
          <ParameterInput
            key={parameter.name}
            parameter={parameter}
            draft={current[parameter.name] ?? initialDrafts([parameter])[parameter.name]!}
            onChange={(draft) => setDrafts({ ...current, [parameter.name]: draft })}
            error={errors[parameter.name]}
            user={user}
          />
        ))}
      </div>
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={busy}>
          {component.submitLabel ?? t('views.form.submit')}
        </Button>
      </div>
      <EventOutcomeView outcome={outcome} />
    </form>
  );
}

function initialValue(field: Field, bind: (expression: string) => unknown): unknown {
  if (field.default === undefined) return field.type === 'boolean' ? false : '';
  return bind(field.default);
}

function FieldsForm({ component }: { component: Form }) {
  const t = useT();
  const runtime = useViewRuntime();
  const fields = component.fields ?? [];
  // biome-ignore lint/correctness/useExhaustiveDependencies: defaults are read once per fields and view arguments, not on every result
  const initial = useMemo(() => {
    const out: Record<string, unknown> = {};
    for (const field of fields) {
      try {
        out[field.name] = initialValue(field, runtime.bind);
      } catch {
        out[field.name] = '';
      }
    }
    return out;
    // The defaults are read once per view arguments, not on every result.
  }, [fields, runtime.args]);
  const [values, setValues] = useState<Record<string, unknown>>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { busy, outcome, submit } = useSubmit(component);
  const current = values ?? initial;
  // The defaults are the form's value until it is submitted, so queries that run on open can use
  // `components.<form>.value.<field>` (a child's effect runs before the view's first queries).
  const { setValue } = runtime;
  useEffect(() => {
    setValue(component.id, initial);
  }, [setValue, component.id, initial]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problems: Record<string, string> = {};
    const out: Record<string, unknown> = {};
    for (const field of fields) {
      const raw = current[field.name];
      if (field.required && (raw === '' || raw === undefined)) {
        problems[field.name] = t('views.form.required');
        continue;
      }
      if (field.type === 'number' && raw !== '' && raw !== undefined) {
        const n = Number(raw);
        if (Number.isNaN(n)) problems[field.name] = t('views.form.notANumber');
        else out[field.name] = n;
      } else if (field.type === 'json' && typeof raw === 'string' && raw.trim()) {
        // Decision 0025: a number JSON.parse would round is refused like invalid JSON.
        const parsed = parseExactJson(raw);
        if (parsed.ok) out[field.name] = parsed.value;
        else problems[field.name] = t('views.form.invalidJson');
      } else if (raw !== undefined && !(raw === '' && ['number', 'json', 'date'].includes(field.type))) {
        out[field.name] = raw;
      }
    }
    setErrors(problems);
    if (Object.keys(problems).length === 0) void submit(out);
  };

  return (
    <form className="view-form" onSubmit={onSubmit} noValidate>
      <div className="param-grid">
        {fields.map((field) => {
          const id = `${component.id}-${field.name}`;
          const value = current[field.name];
          const set = (v: unknown) => setValues({ ...current, [field.name]: v });
          const error = errors[field.name];
          return (
            <div key={field.name} className="field">
              <label htmlFor={id} className="field-label">
                {field.label ?? field.name}
                {field.required ? <span aria-hidden="true"> *</span> : null}
              </label>
              {field.type === 'boolean' ? (
                <input
                  id={id}
                  type="checkbox"
                  checked={Boolean(value)}
                  onChange={(e) => set(e.target.checked)}
                />
              ) : field.type === 'select' ? (
                <select
                  id={id}
                  value={String(value ?? '')}
                  onChange={(e) =>
                    set(
                      field.options?.find((o) => String(o.value) === e.target.value)?.value ?? e.target.value,
                    )
                  }
                >
                  <option value="">—</option>
                  {field.options?.map((o) => (
                    <option key={String(o.value)} value={String(o.value)}>
                      {o.label}
                    </option>
                  ))}
                </select>
              ) : field.type === 'multiline' || field.type === 'json' ? (
                <textarea
                  id={id}
                  value={String(value ?? '')}
                  onChange={(e) => set(e.target.value)}
                  aria-invalid={error ? true : undefined}
                />
              ) : (
                <input
                  id={id}
                  type={field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : 'text'}
                  value={String(value ?? '')}
                  onChange={(e) => set(e.target.value)}
                  aria-invalid={error ? true : undefined}
                />
              )}
              {error ? (
                <div className="field-error" role="alert">
                  {error}
                </div>
              ) : null}
            </div>
          );
        })}
      </div>
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={busy}>
          {component.submitLabel ?? t('views.form.submit')}
        </Button>
      </div>
      <EventOutcomeView outcome={outcome} />
    </form>
  );
}
