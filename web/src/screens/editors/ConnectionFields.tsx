/**
 * One environment's connection settings of a data source, rendered from its kind's form
 * descriptor: text, number, password (write-only), checkbox, choice and key/value lists.
 */
import { errorAt } from '../../api/field-errors.ts';
import { Button, Field } from '../../components/index.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { type ConnectorKind, type FormField, labelIn } from './connector-kinds.ts';

export type KeyValue = { key: string; value: string };
export type ConnectionDraft = Record<string, string | boolean | KeyValue[]>;

interface Props {
  kind: ConnectorKind;
  environmentId: string;
  values: ConnectionDraft;
  /** Secret fields stored already (an empty input keeps them). */
  stored: ReadonlySet<string>;
  errors: Record<string, string>;
  onChange(field: string, value: string | boolean | KeyValue[]): void;
}

export function ConnectionFields({ kind, environmentId, values, stored, errors, onChange }: Props) {
  const { language } = useLanguage();
  const t = useT();
  const errorOf = (field: FormField) => errorAt(errors, `environments/${environmentId}/${field.name}`);
  return (
    <div className="param-grid">
      {kind.connectionFields.map((field) => {
        const label = labelIn(field.label, language);
        const hint = field.hint ? labelIn(field.hint, language) : undefined;
        const value = values[field.name];
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
        if (field.type === 'key-value-list') {
          const rows = Array.isArray(value) ? value : [];
          return (
            <Field key={field.name} label={label} hint={hint} group error={errorOf(field)}>
              <div className="key-value-list">
                {rows.map((row, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
                  <div className="inline-fields" key={i}>
                    <input
                      aria-label={`${label} ${i + 1}: ${t('editors.dataSources.key')}`}
                      className="mono"
                      value={row.key}
                      onChange={(event) =>
                        onChange(
                          field.name,
                          rows.map((r, j) => (j === i ? { ...r, key: event.target.value } : r)),
                        )
                      }
                    />
                    <input
                      aria-label={`${label} ${i + 1}: ${t('editors.dataSources.value')}`}
                      value={row.value}
                      onChange={(event) =>
                        onChange(
                          field.name,
                          rows.map((r, j) => (j === i ? { ...r, value: event.target.value } : r)),
                        )
                      }
                    />
                    <Button
                      className="btn-small"
                      onClick={() =>
                        onChange(
                          field.name,
                          rows.filter((_, j) => j !== i),
                        )
                      }
                    >
                      {t('editors.dataSources.removeRow')}
                    </Button>
                  </div>
                ))}
                <Button
                  className="btn-small"
                  onClick={() => onChange(field.name, [...rows, { key: '', value: '' }])}
                >
                  {t('editors.dataSources.addRow', { label })}
                </Button>
              </div>
            </Field>
          );
        }
        const secretHint =
          field.secret && stored.has(field.name) ? t('editors.dataSources.secretStored') : undefined;
        const defaultHint =
          field.default !== undefined && field.type !== 'select'
            ? t('editors.dataSources.emptyMeans', { value: String(field.default) })
            : undefined;
        return (
          <Field
            key={field.name}
            label={label}
            required={field.required}
            hint={[hint, defaultHint, secretHint].filter(Boolean).join(' ') || undefined}
            error={errorOf(field)}
          >
            {field.type === 'select' ? (
              <select
                value={String(value ?? field.default ?? '')}
                onChange={(event) => onChange(field.name, event.target.value)}
              >
                {(field.options ?? []).map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            ) : field.type === 'textarea' || field.type === 'code' ? (
              <textarea
                className="mono"
                value={String(value ?? '')}
                onChange={(event) => onChange(field.name, event.target.value)}
              />
            ) : (
              <input
                type={field.type === 'password' ? 'password' : field.type === 'number' ? 'number' : 'text'}
                autoComplete={field.type === 'password' ? 'new-password' : 'off'}
                placeholder={field.default !== undefined ? String(field.default) : undefined}
                value={String(value ?? '')}
                onChange={(event) => onChange(field.name, event.target.value)}
              />
            )}
          </Field>
        );
      })}
    </div>
  );
}

/**
 * The API's connection: numbers as numbers, empty inputs and empty list rows left out. An
 * environment with something filled in gets the kind's defaults for what is left empty (the port
 * shown as 5432 is 5432); one with nothing filled in is left out whole.
 */
export function connectionBody(kind: ConnectorKind, values: ConnectionDraft): Record<string, unknown> {
  const connection: Record<string, unknown> = {};
  for (const field of kind.connectionFields) {
    const value = values[field.name];
    if (value === undefined || value === '') continue;
    if (field.type === 'number') connection[field.name] = Number(value);
    else if (field.type === 'key-value-list')
      connection[field.name] = (value as KeyValue[]).filter((row) => row.key !== '');
    else connection[field.name] = value;
  }
  if (Object.keys(connection).length === 0) return connection;
  for (const field of kind.connectionFields) {
    if (connection[field.name] === undefined && field.default !== undefined && field.type !== 'boolean') {
      connection[field.name] = field.default;
    }
  }
  return connection;
}
