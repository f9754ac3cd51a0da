/**
 * An action's own fields for kinds without an editor of their own, rendered from the kind's form
 * descriptor (GET /api/v1/connector-kinds): a new kind is editable without changing the console.
 */
import { errorAt } from '../../api/field-errors.ts';
import { Field } from '../../components/index.ts';
import { useLanguage } from '../../i18n/index.tsx';
import { type FormField, labelIn } from './connector-kinds.ts';

interface Props {
  fields: readonly FormField[];
  values: Record<string, unknown>;
  errors: Record<string, string>;
  onChange(name: string, value: unknown): void;
}

export function ActionFields({ fields, values, errors, onChange }: Props) {
  const { language } = useLanguage();
  return (
    <div className="param-grid">
      {fields.map((field) => {
        const label = labelIn(field.label, language);
        const value = values[field.name] ?? field.default;
        if (field.type === 'boolean') {
          return (
            <label className="checkbox" key={field.name}>
              <input
                type="checkbox"
                checked={value === true}
                onChange={(event) => onChange(field.name, event.target.checked)}
              />
              {label}
            </label>
          );
        }
        return (
          <Field
            key={field.name}
            label={label}
            required={field.required}
            hint={field.hint ? labelIn(field.hint, language) : undefined}
            error={errorAt(errors, field.name)}
          >
            {field.type === 'select' ? (
              <select
                value={String(value ?? '')}
                onChange={(event) => onChange(field.name, event.target.value)}
              >
                {(field.options ?? []).map((option) => (
                  <option key={option}>{option}</option>
                ))}
              </select>
            ) : field.type === 'textarea' || field.type === 'code' ? (
              <textarea
                className="mono"
                rows={6}
                value={
                  typeof value === 'string'
                    ? value
                    : value === undefined
                      ? ''
                      : JSON.stringify(value, null, 2)
                }
                onChange={(event) => onChange(field.name, event.target.value)}
              />
            ) : (
              <input
                type={field.type === 'number' ? 'number' : 'text'}
                value={String(value ?? '')}
                onChange={(event) =>
                  onChange(
                    field.name,
                    field.type === 'number' ? Number(event.target.value) : event.target.value,
                  )
                }
              />
            )}
          </Field>
        );
      })}
    </div>
  );
}
