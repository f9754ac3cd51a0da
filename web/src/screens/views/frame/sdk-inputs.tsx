/**
 * Inputs for code views, the counterparts of visual views' `input` kinds (decision 0212): text,
 * number, date, a date range, select (options given or from rows), multi-select, checkbox and
 * switch. All are controlled (`value`, `onChange`). `debounceMs` makes `onChange` wait for a pause:
 * the input shows every key at once and reports the value once the viewer stops typing.
 */
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { text } from './sdk-texts.ts';

type Row = Record<string, unknown>;

/** Shows `value` at once, reports it after `ms` without another change (at once without `ms`). */
function useSettledChange<T>(value: T, onChange: (value: T) => void, ms: number | undefined) {
  const [draft, setDraft] = useState(value);
  const reported = useRef(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const latest = useRef(onChange);
  latest.current = onChange;
  // A value set from outside (a reset button) replaces what is shown.
  useEffect(() => {
    if (!Object.is(value, reported.current)) {
      reported.current = value;
      setDraft(value);
    }
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const change = (next: T) => {
    setDraft(next);
    clearTimeout(timer.current);
    const report = () => {
      reported.current = next;
      latest.current(next);
    };
    if (ms && ms > 0) timer.current = setTimeout(report, ms);
    else report();
  };
  return [draft, change] as const;
}

function Labelled({ label, id, children }: { label: string; id: string; children: ReactNode }) {
  return (
    <div className="dg-field">
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}

export function Input({
  label,
  value,
  onChange,
  type,
  placeholder,
  debounceMs,
  required,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'search' | 'date' | 'datetime-local' | 'email';
  placeholder?: string;
  debounceMs?: number;
  required?: boolean;
}) {
  const id = useId();
  const [draft, change] = useSettledChange(value, onChange, debounceMs);
  return (
    <Labelled label={label} id={id}>
      <input
        id={id}
        type={type ?? 'text'}
        value={draft}
        placeholder={placeholder}
        required={required}
        onChange={(e) => change(e.target.value)}
      />
    </Labelled>
  );
}

export function NumberInput({
  label,
  value,
  onChange,
  min,
  max,
  step,
  debounceMs,
}: {
  label: string;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
  min?: number;
  max?: number;
  step?: number;
  debounceMs?: number;
}) {
  const id = useId();
  const [draft, change] = useSettledChange(value, onChange, debounceMs);
  return (
    <Labelled label={label} id={id}>
      <input
        id={id}
        type="number"
        value={draft ?? ''}
        min={min}
        max={max}
        step={step}
        onChange={(e) => change(e.target.value === '' ? undefined : Number(e.target.value))}
      />
    </Labelled>
  );
}

export interface DateRangeValue {
  from: string;
  to: string;
}

export function DateRange({
  label,
  value,
  onChange,
}: {
  label: string;
  value: DateRangeValue;
  onChange: (value: DateRangeValue) => void;
}) {
  const id = useId();
  return (
    <fieldset className="dg-field dg-range">
      <legend>{label}</legend>
      <label htmlFor={`${id}-from`}>{text('from')}</label>
      <input
        id={`${id}-from`}
        type="date"
        value={value.from}
        max={value.to || undefined}
        onChange={(e) => onChange({ ...value, from: e.target.value })}
      />
      <label htmlFor={`${id}-to`}>{text('to')}</label>
      <input
        id={`${id}-to`}
        type="date"
        value={value.to}
        min={value.from || undefined}
        onChange={(e) => onChange({ ...value, to: e.target.value })}
      />
    </fieldset>
  );
}

export type Option = string | { value: string; label?: string };

/** Options given, or one per row (`optionValue`/`optionLabel` name the fields; e.g. a `useAction`'s rows). */
function optionsOf(
  options: Option[] | undefined,
  rows: Row[] | undefined,
  valueField?: string,
  labelField?: string,
) {
  if (rows) {
    const v = valueField ?? Object.keys(rows[0] ?? {})[0] ?? 'value';
    return rows.map((row) => ({ value: String(row[v] ?? ''), label: String(row[labelField ?? v] ?? '') }));
  }
  return (options ?? []).map((o) =>
    typeof o === 'string' ? { value: o, label: o } : { value: o.value, label: o.label ?? o.value },
  );
}

interface SelectSource {
  options?: Option[];
  rows?: Row[];
  optionValue?: string;
  optionLabel?: string;
}

export function Select({
  label,
  value,
  onChange,
  placeholder,
  ...source
}: SelectSource & {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
}) {
  const id = useId();
  const choices = optionsOf(source.options, source.rows, source.optionValue, source.optionLabel);
  return (
    <Labelled label={label} id={id}>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{placeholder ?? ''}</option>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </Labelled>
  );
}

export function MultiSelect({
  label,
  value,
  onChange,
  ...source
}: SelectSource & { label: string; value: string[]; onChange: (value: string[]) => void }) {
  const choices = optionsOf(source.options, source.rows, source.optionValue, source.optionLabel);
  return (
    <fieldset className="dg-field dg-choices">
      <legend>{label}</legend>
      {choices.map((c) => (
        <label key={c.value} className="dg-check">
          <input
            type="checkbox"
            checked={value.includes(c.value)}
            onChange={(e) =>
              onChange(e.target.checked ? [...value, c.value] : value.filter((v) => v !== c.value))
            }
          />
          {c.label}
        </label>
      ))}
    </fieldset>
  );
}

export function Checkbox({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="dg-check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** A checkbox drawn as a switch, announced as one (`role="switch"`). */
export function Switch({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="dg-check dg-switch">
      <input
        type="checkbox"
        role="switch"
        aria-checked={checked}
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span aria-hidden="true" className="dg-switch-track" />
      {label}
    </label>
  );
}
