/** The `<option>`s of the time zones a schedule or reservation may use. */
import { timeZoneOptions } from './schedule-draft.ts';

export function TimeZoneOptions() {
  return (
    <>
      {timeZoneOptions().map((zone) => (
        <option key={zone} value={zone}>
          {zone}
        </option>
      ))}
    </>
  );
}
