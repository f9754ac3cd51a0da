/**
 * A table's inline edit in the builder (decision 0220): which columns are edited in their cell, the
 * action that saves an edit, its arguments (expressions over `row` and `value`) and the kind of input.
 */
import { useState } from 'react';
import { useT } from '../../../i18n/index.tsx';
import type { ViewTableColumn } from '../view-api.ts';
import { useBuilderChoices } from './builder-context.ts';
import { ArgumentsField } from './EventsEditor.tsx';
import { textToOptions } from './InputProperties.tsx';
import { LinesField } from './property-fields.tsx';

type Edit = NonNullable<ViewTableColumn['edit']>;
const inputKinds = ['text', 'number', 'select'] as const;

function optionsToText(options: Edit['options']): string {
  return (options ?? []).map((o) => `${String(o.value)} | ${o.label}`).join('\n');
}
export function CellEditProperties({
  columns,
  onChange,
}: {
  columns: ViewTableColumn[];
  onChange(columns: ViewTableColumn[]): void;
}) {
  const t = useT();
  const choices = useBuilderChoices();
  const [adding, setAdding] = useState('');
  const setEdit = (field: string, edit: Edit | undefined) =>
    onChange(
      columns.map((column) => {
        if (column.field !== field) return column;
        const { edit: _, ...rest } = column;
        return edit ? { ...rest, edit } : rest;
      }),
    );
  const plain = columns.filter((c) => !c.edit);
  return (
    <fieldset className="builder-events">
      <legend>{t('views.builder.prop.cellEdits')}</legend>
      {columns.flatMap((column) => {
        const edit = column.edit;
        if (!edit) return [];
        const name = column.label ?? column.field;
        const patch = (next: Partial<Edit>) => {
          const merged = { ...edit, ...next } as Record<string, unknown>;
          for (const [k, v] of Object.entries(next)) if (v === undefined) delete merged[k];
          setEdit(column.field, merged as unknown as Edit);
        };
        return [
          <fieldset key={column.field} className="builder-event" aria-label={name}>
            <legend>{name}</legend>
            <label className="builder-field">
              <span>{t('views.builder.prop.cellEditAction')}</span>
              <select
                aria-label={t('views.builder.prop.cellEditAction')}
                value={edit.actionId}
                onChange={(e) => patch({ actionId: e.target.value })}
              >
                <option value="">—</option>
                {choices.actions.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name} ({a.id})
                  </option>
                ))}
              </select>
            </label>
            <ArgumentsField value={edit.arguments} onChange={(args) => patch({ arguments: args })} />
            <p className="muted small">{t('views.builder.prop.cellEditArgsHint')}</p>
            <label className="builder-field">
              <span>{t('views.builder.prop.cellEditInput')}</span>
              <select
                aria-label={t('views.builder.prop.cellEditInput')}
                value={edit.inputType ?? 'text'}
                onChange={(e) => {
                  const inputType = e.target.value as Edit['inputType'];
                  patch(
                    inputType === 'select'
                      ? { inputType, options: edit.options ?? [] }
                      : { inputType: inputType === 'text' ? undefined : inputType, options: undefined },
                  );
                }}
              >
                {inputKinds.map((kind) => (
                  <option key={kind} value={kind}>
                    {t(`views.builder.prop.cellEditInput.${kind}`)}
                  </option>
                ))}
              </select>
            </label>
            {edit.inputType === 'select' ? (
              <LinesField
                label={t('views.builder.prop.cellEditOptions')}
                initial={optionsToText(edit.options)}
                onChange={(text) => patch({ options: textToOptions(text) })}
              />
            ) : null}
            <button
              type="button"
              className="btn btn-quiet btn-small"
              onClick={() => setEdit(column.field, undefined)}
            >
              {t('views.builder.prop.removeCellEdit', { column: name })}
            </button>
          </fieldset>,
        ];
      })}
      {plain.length > 0 ? (
        <div className="builder-row">
          <label className="builder-field">
            <span>{t('views.builder.prop.cellEditColumn')}</span>
            <select
              aria-label={t('views.builder.prop.cellEditColumn')}
              value={adding}
              onChange={(e) => setAdding(e.target.value)}
            >
              <option value="">{t('views.builder.prop.cellEditNone')}</option>
              {plain.map((c) => (
                <option key={c.field} value={c.field}>
                  {c.label ?? c.field}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="btn btn-secondary btn-small"
            disabled={!adding}
            onClick={() => {
              setEdit(adding, { actionId: '', arguments: {} });
              setAdding('');
            }}
          >
            {t('views.builder.prop.addCellEdit')}
          </button>
        </div>
      ) : null}
    </fieldset>
  );
}
