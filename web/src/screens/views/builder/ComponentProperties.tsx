/**
 * The side panel of the builder: the selected component's properties. Text fields that hold
 * expressions are monospace; columns and fields are `field | label | format` lines.
 */
import { useT } from '../../../i18n/index.tsx';
import type { ViewComponent } from '../view-api.ts';
import { useBuilderChoices } from './builder-context.ts';
import { CellEditProperties } from './CellEditProperties.tsx';
import { ChartProperties } from './ChartProperties.tsx';
import { EventsEditor } from './EventsEditor.tsx';
import { InputProperties } from './InputProperties.tsx';
import { LinesField, Text } from './property-fields.tsx';

type Of<T extends ViewComponent['type']> = Extract<ViewComponent, { type: T }>;
type Columns = NonNullable<Of<'table'>['columns']>;
const formats = ['auto', 'text', 'number', 'date', 'datetime', 'boolean', 'json', 'media'] as const;

function columnsToText(columns: Columns | undefined): string {
  return (columns ?? [])
    .map((c) => [c.field, c.label ?? '', c.format ?? ''].join(' | ').replace(/( \| )+$/, ''))
    .join('\n');
}
function textToColumns(text: string): Columns {
  return text
    .split('\n')
    .map((line) => line.split('|').map((s) => s.trim()))
    .filter(([field]) => Boolean(field))
    .map(([field, label, format]) => ({
      field: field!,
      ...(label ? { label } : {}),
      ...(format && (formats as readonly string[]).includes(format)
        ? { format: format as Columns[number]['format'] }
        : {}),
    }));
}

function Check({
  label,
  value,
  onChange,
}: {
  label: string;
  value: boolean | undefined;
  onChange(v: boolean): void;
}) {
  return (
    <label className="builder-check">
      <input type="checkbox" checked={Boolean(value)} onChange={(e) => onChange(e.target.checked)} /> {label}
    </label>
  );
}

export function ComponentProperties({
  component,
  onChange,
}: {
  component: ViewComponent;
  onChange(next: ViewComponent): void;
}) {
  const t = useT();
  const choices = useBuilderChoices();
  // biome-ignore lint/suspicious/noExplicitAny: one setter for every component type's optional props
  const set = (patch: Record<string, any>) => {
    const next = { ...component, ...patch } as Record<string, unknown>;
    for (const [k, v] of Object.entries(patch)) if (v === undefined || v === '') delete next[k];
    onChange(next as ViewComponent);
  };
  const c = component;
  return (
    <div className="builder-properties" key={c.id}>
      <Text label={t('views.builder.prop.title')} value={c.title} onChange={(title) => set({ title })} />
      <Text
        label={t('views.builder.prop.hidden')}
        value={c.hidden}
        onChange={(hidden) => set({ hidden })}
        mono
      />
      {c.type === 'table' || c.type === 'detail' ? (
        <>
          <label className="builder-field">
            <span>{t('views.builder.query')}</span>
            <select
              aria-label={t('views.builder.query')}
              value={c.query ?? ''}
              onChange={(e) => set({ query: e.target.value || undefined })}
            >
              <option value="">—</option>
              {choices.queries.map((q) => (
                <option key={q} value={q}>
                  {q}
                </option>
              ))}
            </select>
          </label>
          <Text
            label={t('views.builder.prop.value')}
            value={c.value}
            onChange={(value) => set({ value })}
            mono
          />
          <LinesField
            label={c.type === 'table' ? t('views.builder.prop.columns') : t('views.builder.prop.fields')}
            initial={columnsToText(c.type === 'table' ? c.columns : c.fields)}
            onChange={(text) => {
              const list = textToColumns(text);
              // A column keeps its inline edit while its line is retyped (the lines carry no edit).
              const edits = new Map(
                (c.type === 'table' ? (c.columns ?? []) : []).map((col) => [col.field, col.edit]),
              );
              const columns = list.map((col) => {
                const edit = edits.get(col.field);
                return edit ? { ...col, edit } : col;
              });
              set(
                c.type === 'table'
                  ? { columns: columns.length ? columns : undefined }
                  : { fields: list.length ? list : undefined },
              );
            }}
          />
        </>
      ) : null}
      {c.type === 'table' ? (
        <>
          {c.columns?.length ? (
            <CellEditProperties columns={c.columns} onChange={(columns) => set({ columns })} />
          ) : null}
          <Check
            label={t('views.builder.prop.sortable')}
            value={c.sortable}
            onChange={(sortable) => set({ sortable })}
          />
          <Check
            label={t('views.builder.prop.filterable')}
            value={c.filterable}
            onChange={(filterable) => set({ filterable })}
          />
          <Check
            label={t('views.builder.prop.multiSelect')}
            value={c.multiSelect}
            onChange={(multiSelect) => set({ multiSelect })}
          />
          <Check
            label={t('views.builder.prop.csvExport')}
            value={c.csvExport}
            onChange={(csvExport) => set({ csvExport })}
          />
          <Text
            label={t('views.builder.prop.pageSize')}
            value={c.pageSize === undefined ? '' : String(c.pageSize)}
            onChange={(v) => set({ pageSize: v && Number(v) > 0 ? Math.floor(Number(v)) : undefined })}
          />
          <EventsEditor
            label={t('views.builder.prop.rowClick')}
            events={c.rowClick ?? []}
            onChange={(rowClick) => set({ rowClick: rowClick.length ? rowClick : undefined })}
          />
          <fieldset className="builder-events">
            <legend>{t('views.builder.prop.rowMenu')}</legend>
            {(c.rowMenu ?? []).map((item, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: menu items have no id
              <div key={i} className="builder-event">
                <Text
                  label={t('views.builder.prop.menuLabel')}
                  value={item.label}
                  onChange={(label) =>
                    set({ rowMenu: c.rowMenu!.map((m, j) => (j === i ? { ...m, label } : m)) })
                  }
                />
                <EventsEditor
                  label={t('views.builder.prop.menuEvents', { label: item.label })}
                  events={item.events}
                  onChange={(events) =>
                    set({ rowMenu: c.rowMenu!.map((m, j) => (j === i ? { ...m, events } : m)) })
                  }
                />
              </div>
            ))}
            <button
              type="button"
              className="btn btn-secondary btn-small"
              onClick={() =>
                set({
                  rowMenu: [...(c.rowMenu ?? []), { label: t('views.builder.prop.menuItem'), events: [] }],
                })
              }
            >
              {t('views.builder.prop.addMenuItem')}
            </button>
          </fieldset>
        </>
      ) : null}
      {c.type === 'form' ? (
        <>
          <label className="builder-field">
            <span>{t('views.builder.prop.fromAction')}</span>
            <select
              aria-label={t('views.builder.prop.fromAction')}
              value={c.fromAction ?? ''}
              onChange={(e) =>
                set({
                  fromAction: e.target.value || undefined,
                  fields: e.target.value ? undefined : c.fields,
                })
              }
            >
              <option value="">{t('views.builder.prop.customFields')}</option>
              {choices.actions.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} ({a.id})
                </option>
              ))}
            </select>
          </label>
          {c.fromAction ? null : (
            <LinesField
              label={t('views.builder.prop.formFields')}
              initial={(c.fields ?? [])
                .map((f) => `${f.name} | ${f.type}${f.label ? ` | ${f.label}` : ''}`)
                .join('\n')}
              onChange={(text) =>
                set({
                  fields: text
                    .split('\n')
                    .map((l) => l.split('|').map((s) => s.trim()))
                    .filter(([name]) => Boolean(name))
                    .map(([name, type, label]) => ({
                      name: name!,
                      type: (['text', 'multiline', 'number', 'boolean', 'date', 'json', 'select'].includes(
                        type ?? '',
                      )
                        ? type
                        : 'text') as 'text',
                      ...(label ? { label } : {}),
                    })),
                })
              }
            />
          )}
          <Text
            label={t('views.builder.prop.submitLabel')}
            value={c.submitLabel}
            onChange={(submitLabel) => set({ submitLabel })}
          />
          <EventsEditor
            label={t('views.builder.prop.submit')}
            events={c.submit}
            onChange={(submit) => onChange({ ...c, submit })}
          />
        </>
      ) : null}
      {c.type === 'button' ? (
        <>
          <Text
            label={t('views.builder.prop.label')}
            value={c.label}
            onChange={(label) => onChange({ ...c, label })}
          />
          <label className="builder-field">
            <span>{t('views.builder.prop.variant')}</span>
            <select
              aria-label={t('views.builder.prop.variant')}
              value={c.variant ?? 'secondary'}
              onChange={(e) => set({ variant: e.target.value })}
            >
              <option value="primary">primary</option>
              <option value="secondary">secondary</option>
              <option value="danger">danger</option>
            </select>
          </label>
          <EventsEditor
            label={t('views.builder.prop.events')}
            events={c.events}
            onChange={(events) => onChange({ ...c, events })}
          />
        </>
      ) : null}
      {c.type === 'text' || c.type === 'markdown' ? (
        <Text
          label={t('views.builder.prop.content')}
          value={c.content}
          onChange={(content) => onChange({ ...c, content })}
          multiline
        />
      ) : null}
      {c.type === 'media' ? (
        <>
          <Text
            label={t('views.builder.prop.url')}
            value={c.url}
            onChange={(url) => onChange({ ...c, url })}
            mono
          />
          <label className="builder-field">
            <span>{t('views.builder.prop.mediaKind')}</span>
            <select
              aria-label={t('views.builder.prop.mediaKind')}
              value={c.kind ?? ''}
              onChange={(e) => set({ kind: e.target.value || undefined })}
            >
              <option value="">auto</option>
              <option value="image">image</option>
              <option value="video">video</option>
              <option value="audio">audio</option>
            </select>
          </label>
        </>
      ) : null}
      {c.type === 'input' ? <InputProperties component={c} onChange={onChange} /> : null}
      {c.type === 'modal' ? (
        <label className="builder-field">
          <span>{t('views.builder.prop.modalVariant')}</span>
          <select
            aria-label={t('views.builder.prop.modalVariant')}
            value={c.variant ?? 'dialog'}
            onChange={(e) => set({ variant: e.target.value === 'drawer' ? 'drawer' : undefined })}
          >
            <option value="dialog">{t('views.builder.prop.modalVariant.dialog')}</option>
            <option value="drawer">{t('views.builder.prop.modalVariant.drawer')}</option>
          </select>
        </label>
      ) : null}
      {c.type === 'grid' ? (
        <Text
          label={t('views.builder.prop.gridColumns')}
          value={String(c.columns)}
          onChange={(v) => onChange({ ...c, columns: Math.max(1, Math.min(12, Math.floor(Number(v)) || 1)) })}
        />
      ) : null}
      {c.type === 'chart' ? <ChartProperties component={c} onChange={onChange} /> : null}
      {c.type === 'tabs' ? (
        <LinesField
          label={t('views.builder.prop.tabLabels')}
          initial={c.tabs.map((tab) => tab.label).join('\n')}
          onChange={(text) => {
            const labels = text
              .split('\n')
              .map((s) => s.trim())
              .filter(Boolean);
            if (labels.length === 0) return;
            onChange({
              ...c,
              tabs: labels.map((label, i) => ({ label, children: c.tabs[i]?.children ?? [] })),
            });
          }}
        />
      ) : null}
    </div>
  );
}
