/** A schedule in words for lists and the detail screen ("Mon, Tue at 09:00", "Every 15 minutes"). */
import type { Translate } from '../../i18n/index.tsx';
import { type Schedule, weekdayOrder } from './api.ts';

export function describeSchedule(schedule: Schedule, t: Translate): string {
  if (schedule.kind === 'cron') return t('scheduling.describe.cron', { expression: schedule.expression });
  const days =
    schedule.days.by === 'weekday'
      ? schedule.days.weekdays.length === 7
        ? t('scheduling.describe.everyDay')
        : weekdayOrder
            .filter((day) => schedule.days.by === 'weekday' && schedule.days.weekdays.includes(day))
            .map((day) => t(`scheduling.weekday.${day}`))
            .join(', ')
      : t('scheduling.describe.monthDays', {
          days: schedule.days.days.map((d) => (d === 'L' ? t('scheduling.describe.lastDay') : d)).join(', '),
        });
  const times = schedule.times;
  const when =
    times.kind === 'fixed'
      ? t('scheduling.describe.at', { times: times.times.join(', ') })
      : times.kind === 'hourly'
        ? t('scheduling.describe.hourly', { minutes: times.minutes.join(', ') })
        : t(`scheduling.describe.every.${times.unit}`, { every: times.every });
  return `${days} · ${when}`;
}
