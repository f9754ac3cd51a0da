/**
 * One input per parameter kind, generated from the definition (docs/actions.md): text, number,
 * boolean, date (with Unix time), array and tuple editors, SQL, JSON with live validation, file
 * upload, and system values shown read-only. Choices and master data become selects with labels.
 */
import { useState } from 'react';
import type { Choice, Parameter, Principal } from '../../api/types.ts';
import { Field, type FieldControlProps } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { type Draft, parseJson, readFileDraft, unixSecondsOf } from './parameter-values.ts';

export interface ParameterInputProps {
  parameter: Parameter;
  draft: Draft;
  onChange(draft: Draft): void;
  /** The server's or the form's message for this parameter. */
  error?: string | undefined;
  choices?: Choice[] | undefined;
  user?: Principal | undefined;
}

export function ParameterInput({ parameter, draft, onChange, error, choices, user }: ParameterInputProps) {
  const t = useT();
  const label = parameter.label ?? parameter.name;
  const hint = (
    <>
      {parameter.description ? <span>{parameter.description} </span> : null}
      <KindHint parameter={parameter} />
    </>
  );
  const group = parameter.kind === 'tuple' || (parameter.kind === 'array' && !choices);
  const multiChoice = parameter.kind === 'array' && Boolean(choices);
  return (
    <Field
      label={
        <>
          {label}
          <span className="param-name">{parameter.name}</span>
        </>
      }
      required={parameter.required ?? false}
      error={error}
      hint={hint}
      group={group || multiChoice}
      className={`param param-${parameter.kind}`}
    >
      {(control) => (
        <Control
          parameter={parameter}
          draft={draft}
          onChange={onChange}
          choices={choices}
          user={user}
          control={control}
          t={t}
        />
      )}
    </Field>
  );
}

function KindHint({ parameter }: { parameter: Parameter }) {
  const t = useT();
  switch (parameter.kind) {
    case 'number': {
      const parts = [
        parameter.integer ? t('param.hint.integer') : '',
        parameter.min !== undefined ? t('param.hint.min', { min: parameter.min }) : '',
        parameter.max !== undefined ? t('param.hint.max', { max: parameter.max }) : '',
      ].filter(Boolean);
      return parts.length ? <span className="muted">{parts.join(' · ')}</span> : null;
    }
    case 'text':
      if (parameter.identifier) return <span className="muted">{t('param.hint.identifier')}</span>;
      if (parameter.pattern)
        return <span className="muted">{t('param.hint.pattern', { pattern: parameter.pattern })}</span>;
      return null;
    case 'sql':
      return <span className="warning-text">{t('param.hint.sql')}</span>;
    case 'array':
      return parameter.maxItems ? (
        <span className="muted">{t('param.hint.maxItems', { max: parameter.maxItems })}</span>
      ) : null;
    case 'file':
      return (
        <span className="muted">
          {[
            parameter.accept?.length ? t('param.hint.accept', { types: parameter.accept.join(', ') }) : '',
            parameter.maxBytes ? t('param.hint.maxBytes', { size: formatBytes(parameter.maxBytes) }) : '',
          ]
            .filter(Boolean)
            .join(' · ')}
        </span>
      );
    default:
      return null;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

interface ControlProps {
  parameter: Parameter;
  draft: Draft;
  onChange(draft: Draft): void;
  choices: Choice[] | undefined;
  user: Principal | undefined;
  control: FieldControlProps;
  t: ReturnType<typeof useT>;
}

function Control({ parameter, draft, onChange, choices, user, control, t }: ControlProps) {
  const text = draft.kind === 'text' ? draft.value : '';
  const setText = (value: string) => onChange({ kind: 'text', value });
  const name = parameter.name;

  if (choices && (parameter.kind === 'text' || parameter.kind === 'number')) {
    return (
      <select {...control} name={name} value={text} onChange={(e) => setText(e.target.value)}>
        <option value="">{parameter.required ? t('param.choose') : t('param.none')}</option>
        {choices.map((choice) => (
          <option key={String(choice.value)} value={String(choice.value)}>
            {choice.label}
          </option>
        ))}
      </select>
    );
  }

  switch (parameter.kind) {
    case 'text':
      return parameter.multiline ? (
        <textarea {...control} name={name} rows={4} value={text} onChange={(e) => setText(e.target.value)} />
      ) : (
        <input
          {...control}
          name={name}
          type="text"
          className={parameter.identifier ? 'mono' : undefined}
          spellCheck={parameter.identifier ? false : undefined}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      );
    case 'number':
      return (
        // Text, not type="number": a number box empties itself on "12abc" and would send nothing
        // without a word; here every keystroke stays and the form says what is wrong.
        <input
          {...control}
          name={name}
          type="text"
          inputMode={parameter.integer ? 'numeric' : 'decimal'}
          autoComplete="off"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      );
    case 'boolean':
      return (
        <label className="checkbox">
          <input
            {...control}
            name={name}
            type="checkbox"
            checked={draft.kind === 'boolean' && draft.value}
            onChange={(e) => onChange({ kind: 'boolean', value: e.target.checked })}
          />
          <span>{draft.kind === 'boolean' && draft.value ? t('param.true') : t('param.false')}</span>
        </label>
      );
    case 'date':
      return <DateControl parameter={parameter} draft={draft} onChange={onChange} control={control} t={t} />;
    case 'array':
      return choices ? (
        <ChoiceList choices={choices} draft={draft} onChange={onChange} name={name} />
      ) : (
        <ListEditor parameter={parameter} draft={draft} onChange={onChange} t={t} />
      );
    case 'tuple':
      return (
        <div className="tuple-editor">
          {parameter.items.map((item, i) => (
            <label key={`${name}-${i.toString()}`} className="tuple-item">
              <span className="tuple-item-label">{item.label ?? t('param.item', { n: i + 1 })}</span>
              <input
                type="text"
                inputMode={item.kind === 'number' ? 'decimal' : undefined}
                name={`${name}.${i}`}
                value={draft.kind === 'list' ? (draft.items[i] ?? '') : ''}
                onChange={(e) => {
                  const items = draft.kind === 'list' ? [...draft.items] : [];
                  items[i] = e.target.value;
                  onChange({ kind: 'list', items });
                }}
              />
            </label>
          ))}
        </div>
      );
    case 'sql':
      return (
        <textarea
          {...control}
          name={name}
          className="mono sql-editor"
          rows={Math.min(12, Math.max(3, text.split('\n').length + 1))}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      );
    case 'json':
      return <JsonControl control={control} name={name} value={text} onChange={setText} t={t} />;
    case 'file':
      return <FileControl parameter={parameter} draft={draft} onChange={onChange} control={control} t={t} />;
    case 'system':
      return (
        <input
          {...control}
          name={name}
          type="text"
          readOnly
          className="readonly"
          value={systemPreview(parameter.value, user, t)}
        />
      );
  }
}

function systemPreview(value: string, user: Principal | undefined, t: ControlProps['t']): string {
  switch (value) {
    case 'currentUser.id':
      return user?.id ?? '';
    case 'currentUser.name':
      return user?.name ?? '';
    case 'currentUser.email':
      return user?.email ?? '';
    case 'executionId':
      return t('param.system.executionId');
    default:
      return t('param.system.now');
  }
}

function DateControl({
  parameter,
  draft,
  onChange,
  control,
  t,
}: Pick<ControlProps, 'draft' | 'onChange' | 'control' | 't'> & {
  parameter: Extract<Parameter, { kind: 'date' }>;
}) {
  const value = draft.kind === 'date' ? draft.value : '';
  const unix = draft.kind === 'date' && draft.unix;
  const seconds = unix ? undefined : unixSecondsOf(value, parameter.withTime);
  return (
    <div className="date-control">
      <input
        {...control}
        name={parameter.name}
        type={unix ? 'number' : parameter.withTime ? 'datetime-local' : 'date'}
        step={unix ? 1 : undefined}
        value={value}
        onChange={(e) => onChange({ kind: 'date', value: e.target.value, unix })}
      />
      {parameter.useAsUnixtime ? (
        <>
          <label className="checkbox small">
            <input
              type="checkbox"
              checked={unix}
              onChange={(e) => onChange({ kind: 'date', value: '', unix: e.target.checked })}
            />
            <span>{t('param.enterUnixTime')}</span>
          </label>
          {seconds !== undefined ? (
            <span className="muted small">{t('param.unixTimeIs', { seconds })}</span>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

function ChoiceList({
  choices,
  draft,
  onChange,
  name,
}: {
  choices: Choice[];
  draft: Draft;
  onChange(draft: Draft): void;
  name: string;
}) {
  const selected = new Set(draft.kind === 'list' ? draft.items : []);
  return (
    <div className="choice-list">
      {choices.map((choice) => {
        const value = String(choice.value);
        return (
          <label key={value} className="checkbox">
            <input
              type="checkbox"
              name={name}
              value={value}
              checked={selected.has(value)}
              onChange={(e) => {
                const next = new Set(selected);
                if (e.target.checked) next.add(value);
                else next.delete(value);
                // Keep the definition's order, whatever order the boxes were ticked in.
                onChange({
                  kind: 'list',
                  items: choices.map((c) => String(c.value)).filter((v) => next.has(v)),
                });
              }}
            />
            <span>{choice.label}</span>
          </label>
        );
      })}
    </div>
  );
}

function ListEditor({
  parameter,
  draft,
  onChange,
  t,
}: Pick<ControlProps, 'draft' | 'onChange' | 't'> & { parameter: Extract<Parameter, { kind: 'array' }> }) {
  const items = draft.kind === 'list' ? draft.items : [];
  const set = (next: string[]) => onChange({ kind: 'list', items: next });
  return (
    <div className="list-editor">
      {items.map((item, i) => (
        <div key={`${parameter.name}-${i.toString()}`} className="list-row">
          <input
            aria-label={t('param.item', { n: i + 1 })}
            name={`${parameter.name}.${i}`}
            type="text"
            inputMode={parameter.itemKind === 'number' ? 'decimal' : undefined}
            value={item}
            onChange={(e) => set(items.map((v, j) => (j === i ? e.target.value : v)))}
          />
          <button
            type="button"
            className="btn btn-quiet btn-icon"
            aria-label={t('param.removeItem', { n: i + 1 })}
            onClick={() => set(items.filter((_, j) => j !== i))}
          >
            ×
          </button>
        </div>
      ))}
      <button
        type="button"
        className="btn btn-quiet btn-small"
        disabled={parameter.maxItems !== undefined && items.length >= parameter.maxItems}
        onClick={() => set([...items, ''])}
      >
        + {t('param.addItem')}
      </button>
    </div>
  );
}

function JsonControl({
  control,
  name,
  value,
  onChange,
  t,
}: {
  control: FieldControlProps;
  name: string;
  value: string;
  onChange(value: string): void;
  t: ControlProps['t'];
}) {
  const check = value.trim() === '' ? undefined : parseJson(value);
  return (
    <>
      <textarea
        {...control}
        name={name}
        className="mono"
        rows={Math.min(14, Math.max(4, value.split('\n').length + 1))}
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {check ? (
        <div className={check.ok ? 'json-ok small' : 'field-error'} aria-live="polite">
          {check.ok
            ? t('param.jsonValid')
            : check.inexact
              ? t('param.jsonNotExact', { value: check.inexact.literal })
              : t('param.invalidJson', { message: check.message })}
        </div>
      ) : null}
    </>
  );
}

function FileControl({
  parameter,
  draft,
  onChange,
  control,
  t,
}: Pick<ControlProps, 'draft' | 'onChange' | 'control' | 't'> & {
  parameter: Extract<Parameter, { kind: 'file' }>;
}) {
  const [problem, setProblem] = useState<string>();
  const file = draft.kind === 'file' ? draft.file : undefined;
  const limit = parameter.maxBytes ?? 5 * 1024 * 1024;
  return (
    <div className="file-control">
      <input
        {...control}
        name={parameter.name}
        type="file"
        accept={parameter.accept?.join(',')}
        onChange={async (e) => {
          const chosen = e.target.files?.[0];
          setProblem(undefined);
          if (!chosen) {
            onChange({ kind: 'file', file: undefined });
            return;
          }
          if (chosen.size > limit) {
            setProblem(t('param.fileTooLarge', { size: formatBytes(chosen.size), max: formatBytes(limit) }));
            onChange({ kind: 'file', file: undefined });
            return;
          }
          onChange({ kind: 'file', file: await readFileDraft(chosen) });
        }}
      />
      {file ? (
        <span className="muted small">
          {file.name} · {file.contentType} · {formatBytes(file.size)}
        </span>
      ) : null}
      {problem ? (
        <div className="field-error" role="alert">
          {problem}
        </div>
      ) : null}
    </div>
  );
}
