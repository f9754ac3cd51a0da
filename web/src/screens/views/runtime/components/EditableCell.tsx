/**
 * A table cell whose column has `edit` (decision 0220): the value is a button; Enter, F2, a click or
 * a double click opens an input in the cell, Enter saves, Escape cancels. Saving runs the column's
 * action through the view's events (the viewer's own run, with the usual confirmation for an action
 * that changes data), its arguments read `row` and `value`; then the table's query runs again on the
 * same page. A failure stays in the cell with the input, so the viewer can correct the value.
 */
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { Button } from '../../../../components/index.ts';
import { useT } from '../../../../i18n/index.tsx';
import type { ViewEvent, ViewTableColumn } from '../../view-api.ts';
import { ViewReviewNotice } from '../ReviewNotice.tsx';
import { type EventOutcome, useViewRuntime } from '../runtime.tsx';
import { ViewProblem } from '../ViewProblem.tsx';
import { formatValue, plainText } from './format.tsx';

type Row = Record<string, unknown>;
type Edit = NonNullable<ViewTableColumn['edit']>;

/** The typed text as the value the action gets: a number for a number cell, a select's own value. */
function typedValue(edit: Edit, text: string): unknown {
  if (edit.inputType === 'number') return text.trim() === '' ? null : Number(text);
  if (edit.inputType === 'select') {
    return edit.options?.find((option) => String(option.value) === text)?.value ?? text;
  }
  return text;
}

export function EditableCell({
  column,
  row,
  value,
  queryId,
}: {
  column: ViewTableColumn & { edit: Edit };
  row: Row;
  value: unknown;
  /** The table's query, run again after a save (every on-load query when the table shows a value). */
  queryId: string | undefined;
}) {
  const t = useT();
  const runtime = useViewRuntime();
  const [editing, setEditing] = useState(false);
  // The row as it was when the edit began: a search or a refresh meanwhile must not retarget the save.
  const [target, setTarget] = useState<Row>(row);
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<EventOutcome>();
  const input = useRef<HTMLInputElement & HTMLSelectElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const name = column.label ?? column.field;
  const edit = column.edit;

  useEffect(() => {
    if (editing) input.current?.focus();
  }, [editing]);

  const start = () => {
    setTarget(row);
    setText(value === undefined || value === null ? '' : plainText(value));
    setOutcome(undefined);
    setEditing(true);
  };
  const stop = () => {
    setEditing(false);
    setOutcome(undefined);
    // Back to the cell, so the keyboard stays where the viewer was.
    requestAnimationFrame(() => opener.current?.focus());
  };
  const save = async () => {
    setSaving(true);
    setOutcome(undefined);
    const events: ViewEvent[] = [
      {
        type: 'runAction',
        actionId: edit.actionId,
        arguments: edit.arguments,
        onSuccess: [{ type: 'refresh', ...(queryId ? { queries: [queryId] } : {}) }],
      },
    ];
    const result = await runtime.runEvents(events, { row: target, value: typedValue(edit, text) });
    setSaving(false);
    if (result.kind === 'done') stop();
    else setOutcome(result);
  };
  const onKey = (event: KeyboardEvent) => {
    // The row's own keys (Enter runs its click events) are not the cell's.
    event.stopPropagation();
    if (event.key === 'Enter') {
      event.preventDefault();
      if (!saving) void save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      stop();
    }
  };

  if (!editing) {
    return (
      <button
        ref={opener}
        type="button"
        className="view-cell-edit"
        title={t('views.table.editHint')}
        onClick={start}
        onKeyDown={(event) => {
          if (event.key === 'Enter' || event.key === 'F2') {
            event.preventDefault();
            event.stopPropagation();
            start();
          }
        }}
      >
        {/* The name says what the button does and still holds the visible value (WCAG 2.5.3). */}
        <span className="visually-hidden">{t('views.table.editCell', { column: name })} </span>
        {formatValue(value, column.format)}
      </button>
    );
  }
  const label = t('views.table.editValue', { column: name });
  return (
    <div className="view-cell-editor" aria-busy={saving || undefined}>
      {edit.inputType === 'select' ? (
        <select
          ref={input}
          aria-label={label}
          value={text}
          disabled={saving}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKey}
        >
          {(edit.options ?? []).map((option) => (
            <option key={String(option.value)} value={String(option.value)}>
              {option.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          ref={input}
          aria-label={label}
          type={edit.inputType === 'number' ? 'number' : 'text'}
          value={text}
          readOnly={saving}
          aria-invalid={outcome?.kind === 'failed' || undefined}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKey}
        />
      )}
      <span className="view-cell-buttons">
        <Button className="btn-small" variant="primary" busy={saving} onClick={() => void save()}>
          {t('views.table.save')}
        </Button>
        <Button className="btn-small" disabled={saving} onClick={stop}>
          {t('views.table.cancel')}
        </Button>
      </span>
      {outcome?.kind === 'failed' ? <ViewProblem error={outcome.error} /> : null}
      {outcome?.kind === 'review' ? <ViewReviewNotice review={outcome.review} /> : null}
    </div>
  );
}
