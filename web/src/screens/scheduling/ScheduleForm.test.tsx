// @vitest-environment jsdom
/**
 * The schedule form: the request body it builds for each kind of schedule, and the live preview.
 * The preview is the server's own code (previewSchedule and its Problem Details), called in
 * process instead of over HTTP.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { DoguError } from '../../../../shared/domain/errors.ts';
import { previewSchedule } from '../../../../shared/domain/scheduling/cron-jobs.ts';
import type { Schedule as ServerSchedule } from '../../../../shared/domain/scheduling/schedule.ts';
import { problemResponse } from '../../../../shared/http/problem.ts';
import { ApiError } from '../../api/client.ts';
import { formatInZone } from '../../i18n/format-time.ts';
import { I18nProvider } from '../../i18n/index.tsx';
import type { Schedule } from './api.ts';
import { type PreviewSchedule, ScheduleForm } from './ScheduleForm.tsx';
import { defaultScheduleDraft, type ScheduleDraft, scheduleOf } from './schedule-draft.ts';

afterEach(cleanup);

const now = new Date('2026-11-22T00:00:00Z');
const sent: { schedule: Schedule; timeZone: string }[] = [];

const serverPreview: PreviewSchedule = async (body) => {
  sent.push(body);
  try {
    return previewSchedule(body.schedule as ServerSchedule, body.timeZone, now);
  } catch (error) {
    if (!(error instanceof DoguError)) throw error;
    const response = problemResponse(error, 'req-test');
    throw new ApiError(response.statusCode ?? 500, JSON.parse(String(response.body)));
  }
};

function Harness({ initial = defaultScheduleDraft }: { initial?: ScheduleDraft }) {
  const [draft, setDraft] = useState(initial);
  const [timeZone, setTimeZone] = useState('Asia/Tokyo');
  const built = scheduleOf(draft);
  return (
    <I18nProvider language="en">
      <ScheduleForm
        draft={draft}
        onChange={setDraft}
        timeZone={timeZone}
        onTimeZoneChange={setTimeZone}
        preview={serverPreview}
        previewDelay={0}
      />
      <output data-testid="body">{JSON.stringify(built.ok ? built.schedule : null)}</output>
    </I18nProvider>
  );
}

const body = () => JSON.parse(screen.getByTestId('body').textContent!) as Schedule | null;
const lastSent = () => sent.at(-1);

async function previewShows(expected: { expressions: string[]; nextRuns: string[] }, zone = 'Asia/Tokyo') {
  await waitFor(() =>
    expect(screen.getByTestId('next-run').textContent).toBe(formatInZone(expected.nextRuns[0]!, zone, 'en')),
  );
  expect(screen.getByTestId('second-run').textContent).toBe(formatInZone(expected.nextRuns[1]!, zone, 'en'));
  for (const expression of expected.expressions) expect(screen.getByText(expression)).toBeTruthy();
}

describe('schedule form', () => {
  it('weekdays at fixed times: the body lists the chosen days and times, and the preview shows the next two runs', async () => {
    render(<Harness />);
    fireEvent.click(screen.getByLabelText('Wed'));
    fireEvent.click(screen.getByLabelText('Sat'));
    fireEvent.click(screen.getByRole('button', { name: 'Add a time' }));
    fireEvent.change(screen.getByLabelText('Time 2'), { target: { value: '18:30' } });
    const expected: Schedule = {
      kind: 'form',
      days: { by: 'weekday', weekdays: ['MON', 'TUE', 'THU', 'FRI', 'SAT'] },
      times: { kind: 'fixed', times: ['09:00', '18:30'] },
    };
    expect(body()).toEqual(expected);
    await waitFor(() => expect(lastSent()).toEqual({ schedule: expected, timeZone: 'Asia/Tokyo' }));
    const answer = previewSchedule(expected as ServerSchedule, 'Asia/Tokyo', now);
    // Mon–Sat 09:00 Tokyo is 00:00 UTC; 2026-11-22 is a Sunday, so the next runs are Monday 09:00 and 18:30.
    expect(answer.nextRuns).toEqual(['2026-11-23T00:00:00.000Z', '2026-11-23T09:30:00.000Z']);
    await previewShows(answer);
  });

  it('days of the month every hour: 1, 15 and the last day at minutes 0 and 30', async () => {
    render(<Harness />);
    fireEvent.click(screen.getByLabelText('By day of the month'));
    fireEvent.change(screen.getByLabelText(/Days of the month/), { target: { value: '1, 15, L' } });
    fireEvent.click(screen.getByLabelText('Every hour'));
    fireEvent.change(screen.getByLabelText(/At minutes/), { target: { value: '0, 30' } });
    const expected: Schedule = {
      kind: 'form',
      days: { by: 'dayOfMonth', days: [1, 15, 'L'] },
      times: { kind: 'hourly', minutes: [0, 30] },
    };
    expect(body()).toEqual(expected);
    await waitFor(() => expect(lastSent()?.schedule).toEqual(expected));
    await previewShows(previewSchedule(expected as ServerSchedule, 'Asia/Tokyo', now));
  });

  it('every N minutes in another time zone', async () => {
    render(<Harness />);
    fireEvent.click(screen.getByLabelText('Every N minutes or hours'));
    fireEvent.change(screen.getByLabelText('Every'), { target: { value: '20' } });
    fireEvent.change(screen.getByLabelText('Time zone'), { target: { value: 'America/New_York' } });
    const expected: Schedule = {
      kind: 'form',
      days: { by: 'weekday', weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI'] },
      times: { kind: 'interval', every: 20, unit: 'minutes' },
    };
    expect(body()).toEqual(expected);
    await waitFor(() => expect(lastSent()).toEqual({ schedule: expected, timeZone: 'America/New_York' }));
    await previewShows(
      previewSchedule(expected as ServerSchedule, 'America/New_York', now),
      'America/New_York',
    );
  });

  it('the cron toggle sends the expression as typed', async () => {
    render(<Harness />);
    fireEvent.click(screen.getByLabelText('Cron expression'));
    fireEvent.change(screen.getByRole('textbox', { name: /Cron expression/ }), {
      target: { value: '15 10 ? * SUN *' },
    });
    expect(body()).toEqual({ kind: 'cron', expression: '15 10 ? * SUN *' });
    await waitFor(() =>
      expect(lastSent()?.schedule).toEqual({ kind: 'cron', expression: '15 10 ? * SUN *' }),
    );
    const answer = previewSchedule({ kind: 'cron', expression: '15 10 ? * SUN *' }, 'Asia/Tokyo', now);
    await previewShows(answer);
  });

  it("shows the server's precise message for a schedule it refuses", async () => {
    render(<Harness />);
    fireEvent.click(screen.getByLabelText('Cron expression'));
    fireEvent.change(screen.getByRole('textbox', { name: /Cron expression/ }), {
      target: { value: '61 9 ? * MON *' },
    });
    const error = await screen.findByTestId('preview-error');
    expect(error.textContent).toBe("Minute field '61' is out of range 0-59.");
    expect(screen.queryByTestId('next-run')).toBeNull();
  });

  it('a form that cannot be read names the field and asks for no preview', async () => {
    render(<Harness />);
    await waitFor(() => expect(lastSent()).toBeDefined());
    const before = sent.length;
    for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri']) fireEvent.click(screen.getByLabelText(day));
    expect(body()).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('Choose at least one weekday.');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(sent.length).toBe(before);
  });
});
