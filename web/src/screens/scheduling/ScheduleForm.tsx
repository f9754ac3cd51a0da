/**
 * The schedule part of the cron job form: days (weekdays or days of the month), times (fixed,
 * hourly or every N), or a cron expression; the time zone; and a live preview of the EventBridge
 * expressions and the next two runs, computed by the API (`POST …/cron-jobs/preview`) so the
 * console never disagrees with the scheduler.
 */
import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { Button, Field } from '../../components/index.ts';
import { formatInZone } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { type Schedule, type SchedulePreview, weekdayOrder } from './api.ts';
import { type ScheduleDraft, type ScheduleField, scheduleOf } from './schedule-draft.ts';
import { TimeZoneOptions } from './TimeZoneOptions.tsx';

export type PreviewSchedule = (body: { schedule: Schedule; timeZone: string }) => Promise<SchedulePreview>;

export interface ScheduleFormProps {
  draft: ScheduleDraft;
  onChange(draft: ScheduleDraft): void;
  timeZone: string;
  onTimeZoneChange(timeZone: string): void;
  /** The server's messages per field, from a refused save. */
  errors?: Partial<Record<ScheduleField, string>>;
  preview: PreviewSchedule;
  /** Milliseconds to wait after the last change before asking for a preview. */
  previewDelay?: number;
}

type PreviewState =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'shown'; preview: SchedulePreview }
  | { kind: 'error'; message: string };

export function ScheduleForm(props: ScheduleFormProps) {
  const { draft, onChange, timeZone, onTimeZoneChange, errors = {}, preview, previewDelay = 300 } = props;
  const t = useT();
  const { language } = useLanguage();
  const set = (patch: Partial<ScheduleDraft>) => onChange({ ...draft, ...patch });
  const built = scheduleOf(draft);
  const clientError = built.ok ? undefined : t(built.key, built.vars);
  const [state, setState] = useState<PreviewState>({ kind: 'idle' });
  const requestKey = built.ok ? JSON.stringify([built.schedule, timeZone]) : '';

  // biome-ignore lint/correctness/useExhaustiveDependencies: requestKey stands for the schedule and zone.
  useEffect(() => {
    if (!built.ok) {
      setState({ kind: 'idle' });
      return;
    }
    let current = true;
    setState({ kind: 'loading' });
    const timer = setTimeout(() => {
      preview({ schedule: built.schedule, timeZone }).then(
        (answer) => current && setState({ kind: 'shown', preview: answer }),
        (error: unknown) =>
          current &&
          setState({
            kind: 'error',
            message:
              error instanceof ApiError
                ? [error.detail || error.title, ...error.errors.map((e) => e.detail)]
                    .filter((text, i, all) => text && all.indexOf(text) === i)
                    .join(' ')
                : t('error.networkDetail'),
          }),
      );
    }, previewDelay);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [requestKey, preview, previewDelay]);

  return (
    <fieldset className="schedule-form">
      <legend className="field-label">{t('scheduling.form.schedule')}</legend>
      <div className="segmented" role="radiogroup" aria-label={t('scheduling.form.scheduleKind')}>
        {(['form', 'cron'] as const).map((mode) => (
          <label key={mode} className="checkbox">
            <input
              type="radio"
              name="schedule-mode"
              value={mode}
              checked={draft.mode === mode}
              onChange={() => set({ mode })}
            />
            {t(`scheduling.form.mode.${mode}`)}
          </label>
        ))}
      </div>

      {draft.mode === 'cron' ? (
        <Field
          label={t('scheduling.form.expression')}
          required
          error={errors.expression ?? (built.ok ? undefined : clientError)}
          hint={t('scheduling.form.expressionHint')}
        >
          <input
            className="mono"
            value={draft.expression}
            onChange={(event) => set({ expression: event.target.value })}
            spellCheck={false}
          />
        </Field>
      ) : (
        <>
          <Field
            label={t('scheduling.form.days')}
            group
            error={errors.days ?? (!built.ok && built.field === 'days' ? clientError : undefined)}
          >
            <div className="schedule-days">
              <label className="checkbox">
                <input
                  type="radio"
                  name="days-by"
                  checked={draft.daysBy === 'weekday'}
                  onChange={() => set({ daysBy: 'weekday' })}
                />
                {t('scheduling.form.byWeekday')}
              </label>
              <label className="checkbox">
                <input
                  type="radio"
                  name="days-by"
                  checked={draft.daysBy === 'dayOfMonth'}
                  onChange={() => set({ daysBy: 'dayOfMonth' })}
                />
                {t('scheduling.form.byDayOfMonth')}
              </label>
              {draft.daysBy === 'weekday' ? (
                <div className="choice-list weekday-list">
                  {weekdayOrder.map((day) => (
                    <label key={day} className="checkbox">
                      <input
                        type="checkbox"
                        checked={draft.weekdays.includes(day)}
                        onChange={(event) =>
                          set({
                            weekdays: event.target.checked
                              ? weekdayOrder.filter((d) => d === day || draft.weekdays.includes(d))
                              : draft.weekdays.filter((d) => d !== day),
                          })
                        }
                      />
                      {t(`scheduling.weekday.${day}`)}
                    </label>
                  ))}
                </div>
              ) : (
                <label className="inline-field">
                  <span>{t('scheduling.form.monthDays')}</span>
                  <input
                    value={draft.monthDays}
                    onChange={(event) => set({ monthDays: event.target.value })}
                    placeholder="1, 15, L"
                  />
                </label>
              )}
            </div>
          </Field>

          <Field
            label={t('scheduling.form.times')}
            group
            error={errors.times ?? (!built.ok && built.field === 'times' ? clientError : undefined)}
          >
            <div className="schedule-times">
              {(['fixed', 'hourly', 'interval'] as const).map((kind) => (
                <label key={kind} className="checkbox">
                  <input
                    type="radio"
                    name="times-kind"
                    checked={draft.timesKind === kind}
                    onChange={() => set({ timesKind: kind })}
                  />
                  {t(`scheduling.form.times.${kind}`)}
                </label>
              ))}
              {draft.timesKind === 'fixed' ? (
                <div className="list-editor">
                  {draft.fixedTimes.map((time, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the rows are positions in the list.
                    <div key={index} className="list-row">
                      <label className="inline-field">
                        <span>{t('scheduling.form.timeN', { n: index + 1 })}</span>
                        <input
                          type="time"
                          value={time}
                          onChange={(event) =>
                            set({
                              fixedTimes: draft.fixedTimes.map((v, i) =>
                                i === index ? event.target.value : v,
                              ),
                            })
                          }
                        />
                      </label>
                      <Button
                        variant="quiet"
                        className="btn-small"
                        disabled={draft.fixedTimes.length === 1}
                        onClick={() => set({ fixedTimes: draft.fixedTimes.filter((_, i) => i !== index) })}
                        aria-label={t('scheduling.form.removeTime', { n: index + 1 })}
                      >
                        ×
                      </Button>
                    </div>
                  ))}
                  <Button
                    className="btn-small"
                    onClick={() => set({ fixedTimes: [...draft.fixedTimes, '12:00'] })}
                  >
                    {t('scheduling.form.addTime')}
                  </Button>
                </div>
              ) : null}
              {draft.timesKind === 'hourly' ? (
                <label className="inline-field">
                  <span>{t('scheduling.form.minutes')}</span>
                  <input
                    value={draft.hourlyMinutes}
                    onChange={(event) => set({ hourlyMinutes: event.target.value })}
                    placeholder="0, 30"
                  />
                </label>
              ) : null}
              {draft.timesKind === 'interval' ? (
                <div className="inline-fields">
                  <label className="inline-field">
                    <span>{t('scheduling.form.every')}</span>
                    <input
                      type="number"
                      min={1}
                      value={draft.every}
                      onChange={(event) => set({ every: event.target.value })}
                    />
                  </label>
                  <label className="inline-field">
                    <span>{t('scheduling.form.unit')}</span>
                    <select
                      value={draft.unit}
                      onChange={(event) => set({ unit: event.target.value as ScheduleDraft['unit'] })}
                    >
                      <option value="minutes">{t('scheduling.form.unit.minutes')}</option>
                      <option value="hours">{t('scheduling.form.unit.hours')}</option>
                    </select>
                  </label>
                </div>
              ) : null}
            </div>
          </Field>
        </>
      )}

      <Field label={t('scheduling.form.timeZone')} error={errors.timeZone}>
        <select value={timeZone} onChange={(event) => onTimeZoneChange(event.target.value)}>
          <TimeZoneOptions />
        </select>
      </Field>

      <section className="schedule-preview" aria-label={t('scheduling.preview.title')} aria-live="polite">
        <h2 className="section-title">{t('scheduling.preview.title')}</h2>
        {state.kind === 'loading' ? <p className="muted">{t('common.loading')}</p> : null}
        {state.kind === 'error' ? (
          <p className="field-error" data-testid="preview-error">
            {state.message}
          </p>
        ) : null}
        {state.kind === 'shown' ? (
          <dl className="preview-list">
            <dt>{t('scheduling.preview.expressions')}</dt>
            <dd>
              {state.preview.expressions.map((expression) => (
                <code key={expression} className="preview-expression">
                  {expression}
                </code>
              ))}
            </dd>
            <dt>{t('scheduling.preview.nextRun')}</dt>
            <dd data-testid="next-run">
              {state.preview.nextRuns[0] ? formatInZone(state.preview.nextRuns[0], timeZone, language) : '—'}
            </dd>
            <dt>{t('scheduling.preview.secondRun')}</dt>
            <dd data-testid="second-run">
              {state.preview.nextRuns[1] ? formatInZone(state.preview.nextRuns[1], timeZone, language) : '—'}
            </dd>
          </dl>
        ) : null}
      </section>
    </fieldset>
  );
}
