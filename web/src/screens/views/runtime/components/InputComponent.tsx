/**
 * A standalone input (text, number, select, multi-select, checkbox, switch, date): its value is
 * `components.<id>.value` at once; the queries reading it and its `onChange` events run once the
 * changes pause (runtime.changeInput), so a search box sends one run per pause, not one per key.
 */
import { useEffect, useMemo, useState } from 'react';
import { useT } from '../../../../i18n/index.tsx';
import type { ViewComponent } from '../../view-api.ts';
import { templateText, useViewRuntime } from '../runtime.tsx';

type Input = Extract<ViewComponent, { type: 'input' }>;
type Choice = { value: unknown; label: string };

/** The value before any change: the `default` expression, or empty for the kind. */
export function emptyInputValue(kind: Input['inputType']): unknown {
  if (kind === 'checkbox' || kind === 'switch') return false;
  if (kind === 'multiselect') return [];
  if (kind === 'number') return undefined;
  return '';
}

/** A select's choices: the static list, or one per row of `optionsQuery`. */
function useChoices(component: Input): Choice[] {
  const runtime = useViewRuntime();
  const rows = component.optionsQuery ? runtime.queries[component.optionsQuery]?.rows : undefined;
  return useMemo(() => {
    if (component.options) return component.options;
    const valueField = component.optionValue;
    const labelField = component.optionLabel ?? valueField;
    return (rows ?? []).map((row) => {
      const first = Object.values(row)[0];
      const value = valueField ? row[valueField] : first;
      const label = labelField ? row[labelField] : first;
      return { value, label: label === undefined || label === null ? '' : String(label) };
    });
  }, [component.options, component.optionValue, component.optionLabel, rows]);
}

export function InputComponent({ component }: { component: Input }) {
  const t = useT();
  const runtime = useViewRuntime();
  const { setValue, changeInput } = runtime;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the default is read once per definition and view arguments
  const initial = useMemo(() => {
    if (component.default === undefined) return emptyInputValue(component.inputType);
    try {
      return runtime.bind(component.default);
    } catch {
      return emptyInputValue(component.inputType);
    }
  }, [component.default, component.inputType, runtime.args]);
  const [value, setLocal] = useState<unknown>(initial);
  // The default is the value from the start, so the queries that run on open read it (a child's
  // effect runs before the view's first queries).
  useEffect(() => {
    setLocal(initial);
    setValue(component.id, initial);
  }, [component.id, initial, setValue]);
  const choices = useChoices(component);
  const change = (next: unknown) => {
    setLocal(next);
    changeInput(component.id, next, component.debounceMs, component.onChange);
  };
  const label = templateText(component.label ?? component.title ?? component.id, runtime.context());
  const id = `view-input-${component.id}`;
  const kind = component.inputType;

  if (kind === 'checkbox' || kind === 'switch') {
    return (
      <label className={`view-input view-input-${kind}`} htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          role={kind === 'switch' ? 'switch' : undefined}
          checked={value === true}
          onChange={(e) => change(e.target.checked)}
        />
        <span>{label}</span>
      </label>
    );
  }
  let control: React.ReactNode;
  if (kind === 'select' || kind === 'multiselect') {
    const multiple = kind === 'multiselect';
    const selected = multiple
      ? choices.flatMap((c, i) => (((value as unknown[]) ?? []).includes(c.value) ? [String(i)] : []))
      : String(choices.findIndex((c) => c.value === value));
    control = (
      <select
        id={id}
        multiple={multiple}
        value={selected}
        onChange={(e) => {
          const picked = [...e.target.selectedOptions]
            .map((o) => Number(o.value))
            .filter((i) => i >= 0)
            .map((i) => choices[i]?.value);
          change(multiple ? picked : (picked[0] ?? ''));
        }}
      >
        {multiple ? null : <option value="-1">{component.placeholder ?? t('views.input.choose')}</option>}
        {choices.map((choice, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: choices are addressed by position (values may repeat types)
          <option key={i} value={String(i)}>
            {choice.label}
          </option>
        ))}
      </select>
    );
  } else {
    const shown = value === undefined || value === null ? '' : String(value);
    control = (
      <input
        id={id}
        type={kind === 'number' ? 'number' : kind === 'date' ? 'date' : 'search'}
        placeholder={component.placeholder}
        value={shown}
        onChange={(e) => {
          const raw = e.target.value;
          if (kind !== 'number') return change(raw);
          change(raw.trim() === '' || Number.isNaN(Number(raw)) ? undefined : Number(raw));
        }}
      />
    );
  }
  return (
    <div className={`view-input view-input-${kind}`}>
      <label htmlFor={id}>{label}</label>
      {control}
    </div>
  );
}
