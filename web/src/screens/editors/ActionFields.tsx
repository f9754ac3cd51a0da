/**
 * An action's own fields for kinds without an editor of their own, rendered from the kind's form
 * descriptor (GET /api/v1/connector-kinds): a new kind is editable without changing the console.
 * A field marked `catalog` can also be chosen from what the data source offers (a gRPC server's
 * methods): choosing an entry fills the fields it names (the method, a request template).
 */
import { useState } from 'react';
import { errorAt } from '../../api/field-errors.ts';
import { Button, Field } from '../../components/index.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { type CatalogEntry, type FormField, labelIn } from './connector-kinds.ts';
import { type CallableAction, ScriptEditor } from './ScriptEditor.tsx';

interface Props {
  fields: readonly FormField[];
  values: Record<string, unknown>;
  errors: Record<string, string>;
  onChange(name: string, value: unknown): void;
  /** What the chosen data source offers, for fields marked `catalog`; absent: no data source yet. */
  loadCatalog?: () => Promise<CatalogEntry[]>;
  /** Sets several fields at once (an entry of the catalog). */
  onFill?(values: Record<string, unknown>): void;
  /** For JavaScript code fields: the actions the script may call. */
  callable?: readonly CallableAction[];
}

export function ActionFields({ fields, values, errors, onChange, loadCatalog, onFill, callable }: Props) {
  const { language } = useLanguage();
  const hasCatalog = fields.some((f) => f.catalog) && loadCatalog !== undefined;
  return (
    <div className="param-grid">
      {hasCatalog ? <CatalogPicker load={loadCatalog} onChoose={(entry) => onFill?.(entry.fill)} /> : null}
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
        if (field.type === 'code' && field.language === 'javascript') {
          return (
            <Field
              key={field.name}
              className="field-wide"
              label={label}
              required={field.required}
              hint={field.hint ? labelIn(field.hint, language) : undefined}
              error={errorAt(errors, field.name)}
            >
              {(control) => (
                <ScriptEditor
                  control={control}
                  value={typeof value === 'string' ? value : ''}
                  onChange={(code) => onChange(field.name, code)}
                  callable={callable ?? []}
                />
              )}
            </Field>
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

function CatalogPicker({
  load,
  onChoose,
}: {
  load: () => Promise<CatalogEntry[]>;
  onChoose(entry: CatalogEntry): void;
}) {
  const t = useT();
  const [entries, setEntries] = useState<CatalogEntry[]>();
  const [state, setState] = useState<'idle' | 'loading' | { error: string }>('idle');
  const fetchEntries = async () => {
    setState('loading');
    try {
      setEntries(await load());
      setState('idle');
    } catch (error) {
      setState({ error: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <Field
      label={t('editors.actions.catalog')}
      hint={t('editors.actions.catalogHint')}
      error={typeof state === 'object' ? state.error : undefined}
    >
      {entries ? (
        <select
          value=""
          onChange={(event) => {
            const entry = entries.find((e) => e.id === event.target.value);
            if (entry) onChoose(entry);
          }}
        >
          <option value="">{t('editors.actions.catalogChoose', { n: entries.length })}</option>
          {entries.map((entry) => (
            <option key={entry.id} value={entry.id} title={entry.description}>
              {entry.label}
            </option>
          ))}
        </select>
      ) : (
        <Button className="btn-small" busy={state === 'loading'} onClick={fetchEntries}>
          {state === 'loading' ? t('editors.actions.catalogLoading') : t('editors.actions.catalogLoad')}
        </Button>
      )}
    </Field>
  );
}
