/**
 * A list of events (run a query, run an action with arguments and follow-up events, refresh,
 * navigate) as small forms. Arguments are `name: expression` lines (`id: row.id`).
 */
import { useState } from 'react';
import { Button } from '../../../components/index.ts';
import { useT } from '../../../i18n/index.tsx';
import type { ViewEvent } from '../view-api.ts';
import { useBuilderChoices } from './builder-context.ts';
import { argumentsToText, textToArguments } from './draft.ts';

const eventTypes: ViewEvent['type'][] = [
  'runAction',
  'runQuery',
  'refresh',
  'navigate',
  'toast',
  'setState',
  'openModal',
  'closeModal',
];

function newEvent(type: ViewEvent['type']): ViewEvent {
  switch (type) {
    case 'runAction':
      return { type, actionId: '', arguments: {} };
    case 'runQuery':
      return { type, query: '' };
    case 'refresh':
      return { type };
    case 'navigate':
      return { type, to: { view: '' }, arguments: {} };
    case 'toast':
      return { type, message: 'Done' };
    case 'openModal':
    case 'closeModal':
      return { type, modal: '' };
    case 'setState':
      return { type, name: 'x', value: 'true' };
  }
}

export function EventsEditor({
  label,
  events,
  onChange,
  depth = 0,
}: {
  label: string;
  events: ViewEvent[];
  onChange(events: ViewEvent[]): void;
  depth?: number;
}) {
  const t = useT();
  const [adding, setAdding] = useState<ViewEvent['type']>('runAction');
  const set = (i: number, event: ViewEvent) => onChange(events.map((e, j) => (j === i ? event : e)));
  return (
    <fieldset className="builder-events" aria-label={label}>
      <legend>{label}</legend>
      {events.map((event, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: events have no id
        <section key={i} className="builder-event" aria-label={`${label} ${i + 1}`}>
          <div className="builder-event-head">
            <strong>{t(`views.event.${event.type}`)}</strong>
            <Button
              variant="quiet"
              className="btn-small"
              onClick={() => onChange(events.filter((_, j) => j !== i))}
            >
              {t('views.builder.remove')}
            </Button>
          </div>
          <EventFields event={event} onChange={(next) => set(i, next)} depth={depth} />
        </section>
      ))}
      <div className="builder-row">
        <select
          aria-label={t('views.builder.eventType', { label })}
          value={adding}
          onChange={(e) => setAdding(e.target.value as ViewEvent['type'])}
        >
          {eventTypes.map((type) => (
            <option key={type} value={type}>
              {t(`views.event.${type}`)}
            </option>
          ))}
        </select>
        <Button className="btn-small" onClick={() => onChange([...events, newEvent(adding)])}>
          {t('views.builder.addEvent', { label })}
        </Button>
      </div>
    </fieldset>
  );
}

function EventFields({
  event,
  onChange,
  depth,
}: {
  event: ViewEvent;
  onChange(e: ViewEvent): void;
  depth: number;
}) {
  const t = useT();
  const choices = useBuilderChoices();
  if (event.type === 'runQuery') {
    return (
      <label className="builder-field">
        <span>{t('views.builder.query')}</span>
        <select
          aria-label={t('views.builder.query')}
          value={event.query}
          onChange={(e) => onChange({ ...event, query: e.target.value })}
        >
          <option value="">—</option>
          {choices.queries.map((q) => (
            <option key={q} value={q}>
              {q}
            </option>
          ))}
        </select>
      </label>
    );
  }
  if (event.type === 'refresh') {
    return (
      <label className="builder-field">
        <span>{t('views.builder.refreshQueries')}</span>
        <input
          aria-label={t('views.builder.refreshQueries')}
          value={(event.queries ?? []).join(', ')}
          placeholder={t('views.builder.allLoadQueries')}
          onChange={(e) => {
            const queries = e.target.value
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean);
            onChange(queries.length ? { type: 'refresh', queries } : { type: 'refresh' });
          }}
        />
      </label>
    );
  }
  if (event.type === 'runAction') {
    return (
      <>
        <label className="builder-field">
          <span>{t('views.builder.action')}</span>
          <select
            aria-label={t('views.builder.action')}
            value={event.actionId}
            onChange={(e) => onChange({ ...event, actionId: e.target.value })}
          >
            <option value="">—</option>
            {choices.actions.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.id})
              </option>
            ))}
          </select>
        </label>
        <ArgumentsField
          value={event.arguments}
          onChange={(args) => onChange({ ...event, arguments: args })}
        />
        <label className="builder-field">
          <span>{t('views.builder.confirmQuestion')}</span>
          <input
            aria-label={t('views.builder.confirmQuestion')}
            value={event.confirm ?? ''}
            onChange={(e) => {
              const { confirm: _, ...rest } = event;
              onChange(e.target.value ? { ...rest, confirm: e.target.value } : rest);
            }}
          />
        </label>
        {depth < 3 ? (
          <EventsEditor
            label={t('views.builder.onSuccess')}
            events={event.onSuccess ?? []}
            depth={depth + 1}
            onChange={(onSuccess) => {
              const { onSuccess: _, ...rest } = event;
              onChange(onSuccess.length ? { ...rest, onSuccess } : rest);
            }}
          />
        ) : null}
      </>
    );
  }
  if (event.type === 'setState') {
    return (
      <>
        <label className="builder-field">
          <span>{t('views.builder.stateName')}</span>
          <input
            aria-label={t('views.builder.stateName')}
            className="mono"
            value={event.name}
            onChange={(e) => onChange({ ...event, name: e.target.value })}
          />
        </label>
        <label className="builder-field">
          <span>{t('views.builder.stateValue')}</span>
          <input
            aria-label={t('views.builder.stateValue')}
            className="mono"
            value={event.value}
            onChange={(e) => onChange({ ...event, value: e.target.value })}
          />
        </label>
      </>
    );
  }
  if (event.type === 'openModal' || event.type === 'closeModal') {
    return (
      <label className="builder-field">
        <span>{t('views.builder.modal')}</span>
        <select
          aria-label={t('views.builder.modal')}
          value={event.modal}
          onChange={(e) => onChange({ ...event, modal: e.target.value })}
        >
          <option value="">—</option>
          {(choices.modals ?? []).map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
      </label>
    );
  }
  if (event.type === 'toast') {
    return (
      <>
        <label className="builder-field">
          <span>{t('views.builder.toastMessage')}</span>
          <input
            aria-label={t('views.builder.toastMessage')}
            value={event.message}
            onChange={(e) => onChange({ ...event, message: e.target.value })}
          />
        </label>
        <label className="builder-field">
          <span>{t('views.builder.toastKind')}</span>
          <select
            aria-label={t('views.builder.toastKind')}
            value={event.kind ?? 'success'}
            onChange={(e) => onChange({ ...event, kind: e.target.value as 'success' })}
          >
            {(['success', 'info', 'error'] as const).map((k) => (
              <option key={k} value={k}>
                {t(`views.builder.toastKind.${k}`)}
              </option>
            ))}
          </select>
        </label>
      </>
    );
  }
  const kind = 'view' in event.to ? 'view' : 'action' in event.to ? 'action' : 'url';
  const target = 'view' in event.to ? event.to.view : 'action' in event.to ? event.to.action : event.to.url;
  const setTarget = (k: string, value: string) =>
    onChange({
      ...event,
      to: (k === 'view' ? { view: value } : k === 'action' ? { action: value } : { url: value }) as never,
    });
  return (
    <>
      <label className="builder-field">
        <span>{t('views.builder.navigateTo')}</span>
        <select
          aria-label={t('views.builder.navigateTo')}
          value={kind}
          onChange={(e) => setTarget(e.target.value, '')}
        >
          <option value="view">{t('views.builder.target.view')}</option>
          <option value="action">{t('views.builder.target.action')}</option>
          <option value="url">{t('views.builder.target.url')}</option>
        </select>
      </label>
      {kind === 'url' ? (
        <label className="builder-field">
          <span>{t('views.builder.urlExpression')}</span>
          <input
            aria-label={t('views.builder.urlExpression')}
            className="mono"
            value={target}
            onChange={(e) => setTarget('url', e.target.value)}
          />
        </label>
      ) : (
        <label className="builder-field">
          <span>{t(`views.builder.target.${kind}`)}</span>
          <select
            aria-label={t(`views.builder.target.${kind}`)}
            value={target}
            onChange={(e) => setTarget(kind, e.target.value)}
          >
            <option value="">—</option>
            {(kind === 'view' ? choices.views : choices.actions).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.id})
              </option>
            ))}
          </select>
        </label>
      )}
      <ArgumentsField value={event.arguments} onChange={(args) => onChange({ ...event, arguments: args })} />
    </>
  );
}

export function ArgumentsField({
  value,
  onChange,
}: {
  value: Record<string, string> | undefined;
  onChange(args: Record<string, string>): void;
}) {
  const t = useT();
  const [text, setText] = useState(argumentsToText(value));
  return (
    <label className="builder-field">
      <span>{t('views.builder.arguments')}</span>
      <textarea
        aria-label={t('views.builder.arguments')}
        className="mono"
        rows={2}
        value={text}
        placeholder="id: row.id"
        onChange={(e) => {
          setText(e.target.value);
          onChange(textToArguments(e.target.value));
        }}
      />
    </label>
  );
}
