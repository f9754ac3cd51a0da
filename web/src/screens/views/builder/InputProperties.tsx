/** The property panel of a standalone input: kind, label, first value, choices, pause, on-change events. */
import { viewInputKinds } from '../../../../../shared/domain/definitions/view.ts';
import { useT } from '../../../i18n/index.tsx';
import type { ViewComponent } from '../view-api.ts';
import { useBuilderChoices } from './builder-context.ts';
import { EventsEditor } from './EventsEditor.tsx';
import { LinesField, Text } from './property-fields.tsx';

type Input = Extract<ViewComponent, { type: 'input' }>;
type Options = NonNullable<Input['options']>;

/** `value | label` lines; a value that reads as a number or true/false keeps that type. */
export function textToOptions(text: string): Options {
  return text
    .split('\n')
    .map((line) => line.split('|').map((s) => s.trim()))
    .filter(([value]) => Boolean(value))
    .map(([raw, label]) => {
      const value =
        raw === 'true' ? true : raw === 'false' ? false : /^-?\d+(\.\d+)?$/.test(raw!) ? Number(raw) : raw!;
      return { value, label: label || raw! };
    });
}

export function InputProperties({
  component: c,
  onChange,
}: {
  component: Input;
  onChange(next: Input): void;
}) {
  const t = useT();
  const choices = useBuilderChoices();
  const set = (patch: Partial<Input>) => {
    const next = { ...c, ...patch } as Record<string, unknown>;
    for (const [k, v] of Object.entries(patch)) if (v === undefined || v === '') delete next[k];
    onChange(next as Input);
  };
  const hasChoices = c.inputType === 'select' || c.inputType === 'multiselect';
  return (
    <>
      <label className="builder-field">
        <span>{t('views.builder.prop.inputType')}</span>
        <select
          aria-label={t('views.builder.prop.inputType')}
          value={c.inputType}
          onChange={(e) => {
            const inputType = e.target.value as Input['inputType'];
            const selects = inputType === 'select' || inputType === 'multiselect';
            set({
              inputType,
              options: selects ? (c.options ?? (c.optionsQuery ? undefined : [])) : undefined,
              optionsQuery: selects ? c.optionsQuery : undefined,
              optionValue: selects ? c.optionValue : undefined,
              optionLabel: selects ? c.optionLabel : undefined,
            });
          }}
        >
          {viewInputKinds.map((kind) => (
            <option key={kind} value={kind}>
              {t(`views.builder.prop.inputKind.${kind}`)}
            </option>
          ))}
        </select>
      </label>
      <Text label={t('views.builder.prop.inputLabel')} value={c.label} onChange={(label) => set({ label })} />
      <Text
        label={t('views.builder.prop.placeholder')}
        value={c.placeholder}
        onChange={(placeholder) => set({ placeholder })}
      />
      <Text
        label={t('views.builder.prop.default')}
        value={c.default}
        onChange={(value) => set({ default: value })}
        mono
      />
      {hasChoices ? (
        <>
          <label className="builder-field">
            <span>{t('views.builder.prop.optionsQuery')}</span>
            <select
              aria-label={t('views.builder.prop.optionsQuery')}
              value={c.optionsQuery ?? ''}
              onChange={(e) =>
                set(
                  e.target.value
                    ? { optionsQuery: e.target.value, options: undefined }
                    : { optionsQuery: undefined, options: c.options ?? [] },
                )
              }
            >
              <option value="">—</option>
              {choices.queries.map((q) => (
                <option key={q} value={q}>
                  {q}
                </option>
              ))}
            </select>
          </label>
          {c.optionsQuery ? (
            <>
              <Text
                label={t('views.builder.prop.optionValue')}
                value={c.optionValue}
                onChange={(optionValue) => set({ optionValue })}
              />
              <Text
                label={t('views.builder.prop.optionLabel')}
                value={c.optionLabel}
                onChange={(optionLabel) => set({ optionLabel })}
              />
            </>
          ) : (
            <LinesField
              label={t('views.builder.prop.options')}
              initial={(c.options ?? []).map((o) => `${String(o.value)} | ${o.label}`).join('\n')}
              onChange={(text) => onChange({ ...c, options: textToOptions(text) })}
            />
          )}
        </>
      ) : null}
      <Text
        label={t('views.builder.prop.debounceMs')}
        value={c.debounceMs === undefined ? '' : String(c.debounceMs)}
        onChange={(v) =>
          set({
            debounceMs: v.trim() === '' ? undefined : Math.max(0, Math.min(5000, Math.floor(Number(v)) || 0)),
          })
        }
      />
      <EventsEditor
        label={t('views.builder.prop.onChange')}
        events={c.onChange ?? []}
        onChange={(events) => set({ onChange: events.length > 0 ? events : undefined })}
      />
    </>
  );
}
