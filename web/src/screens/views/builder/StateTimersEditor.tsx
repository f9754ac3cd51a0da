/**
 * The view's state variables (`name: first value` lines, read as `state.<name>`) and timers
 * (`seconds | query, query` lines; at least 5 s, checked again at save).
 */
import { useT } from '../../../i18n/index.tsx';
import type { VisualViewDefinition } from '../view-api.ts';
import { argumentsToText, textToArguments } from './draft.ts';
import { LinesField } from './property-fields.tsx';

type Timers = NonNullable<VisualViewDefinition['timers']>;

export function textToTimers(text: string): Timers {
  return text
    .split('\n')
    .map((line) => line.split('|').map((s) => s.trim()))
    .filter(([seconds, queries]) => Boolean(seconds) && Boolean(queries))
    .map(([seconds, queries]) => ({
      everySeconds: Math.max(5, Math.floor(Number(seconds)) || 5),
      queries: queries!
        .split(',')
        .map((q) => q.trim())
        .filter(Boolean),
    }))
    .filter((timer) => timer.queries.length > 0);
}

export function StateTimersEditor({
  definition,
  onChange,
}: {
  definition: VisualViewDefinition;
  onChange(next: VisualViewDefinition): void;
}) {
  const t = useT();
  const without = (key: 'state' | 'timers') => {
    const { [key]: _, ...rest } = definition;
    return rest as VisualViewDefinition;
  };
  return (
    <section className="builder-queries" aria-label={t('views.builder.stateAndTimers')}>
      <h2>{t('views.builder.stateAndTimers')}</h2>
      <LinesField
        label={t('views.builder.stateLines')}
        initial={argumentsToText(definition.state)}
        onChange={(text) => {
          const state = textToArguments(text);
          onChange(Object.keys(state).length ? { ...definition, state } : without('state'));
        }}
      />
      <LinesField
        label={t('views.builder.timerLines')}
        initial={(definition.timers ?? [])
          .map((tm) => `${tm.everySeconds} | ${tm.queries.join(', ')}`)
          .join('\n')}
        onChange={(text) => {
          const timers = textToTimers(text);
          onChange(timers.length ? { ...definition, timers } : without('timers'));
        }}
      />
    </section>
  );
}
