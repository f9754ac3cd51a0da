/**
 * Cron text typed by users → EventBridge Scheduler expressions (6 fields, no `cron(` wrapper).
 * Accepts EventBridge's own syntax and the common 5-field syntax; validates both against EventBridge's
 * rules, because an expression EventBridge refuses would only fail later, at deployment of the schedule.
 */
import { DoguError } from '../errors.ts';

const expressionPointer = '/schedule/expression';

export const invalidSchedule = (pointer: string, detail: string) =>
  new DoguError('invalid_definition', detail, { errors: [{ pointer, detail }] });

const invalid = (detail: string) => invalidSchedule(expressionPointer, detail);

const monthNames = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
/** EventBridge numbers weekdays 1-7 from Sunday. */
export const weekdayNames = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface FieldSpec {
  label: string;
  min: number;
  max: number;
  /** Names for min, min+1, … */
  names?: string[];
  /** Whether `/` steps are allowed. */
  steps: boolean;
}

const minute: FieldSpec = { label: 'Minute', min: 0, max: 59, steps: true };
const hour: FieldSpec = { label: 'Hour', min: 0, max: 23, steps: true };
const dayOfMonth: FieldSpec = { label: 'Day-of-month', min: 1, max: 31, steps: true };
const month: FieldSpec = { label: 'Month', min: 1, max: 12, names: monthNames, steps: true };
const year: FieldSpec = { label: 'Year', min: 1970, max: 2199, steps: true };
const eventBridgeWeekday: FieldSpec = {
  label: 'Day-of-week',
  min: 1,
  max: 7,
  names: weekdayNames,
  steps: false,
};
/** 5-field cron: 0-7 where both 0 and 7 are Sunday. */
const classicWeekday: FieldSpec = { label: 'Day-of-week', min: 0, max: 7, names: weekdayNames, steps: true };

const rangeText = (spec: FieldSpec) =>
  spec.names
    ? `${spec.min}-${spec.max} or ${spec.names[0]}-${spec.names[spec.names.length - 1]}`
    : `${spec.min}-${spec.max}`;

function parseValue(token: string, spec: FieldSpec, endOfRange: boolean): number {
  const upper = token.toUpperCase();
  const nameIndex = spec.names?.indexOf(upper) ?? -1;
  if (nameIndex >= 0) {
    // In 5-field cron, SUN ends a range as 7 (FRI-SUN); at its start it is 0.
    if (spec === classicWeekday && nameIndex === 0 && endOfRange) return 7;
    return spec.min + nameIndex;
  }
  if (!/^\d+$/.test(token)) {
    throw invalid(`${spec.label} field '${token}' is not a valid value: use ${rangeText(spec)}.`);
  }
  const value = Number(token);
  if (value < spec.min || value > spec.max) {
    throw invalid(`${spec.label} field '${token}' is out of range ${rangeText(spec)}.`);
  }
  return value;
}

/** The values one list entry (`*`, `5`, `1-5`, `*\/15`, `0/15`, `10-40/10`) stands for. */
function parseEntry(entry: string, spec: FieldSpec): number[] {
  const [base = '', step, extra] = entry.split('/');
  if (extra !== undefined || base === '') {
    throw invalid(`${spec.label} field '${entry}' is not valid: write a value, a range a-b, or a step a/n.`);
  }
  let from: number;
  let to: number;
  if (base === '*') {
    from = spec.min;
    to = spec === classicWeekday ? 6 : spec.max;
  } else {
    const [first = '', last, more] = base.split('-');
    if (more !== undefined || first === '' || last === '') {
      throw invalid(`${spec.label} field '${entry}' is not a valid range: write it as a-b.`);
    }
    from = parseValue(first, spec, false);
    to = last === undefined ? (step === undefined ? from : spec.max) : parseValue(last, spec, true);
    if (from > to) {
      throw invalid(
        `${spec.label} field range '${base}' goes backwards: split it into two parts, e.g. '${first}-${spec.names?.at(-1) ?? spec.max},${spec.names?.[0] ?? spec.min}-${last}'.`,
      );
    }
  }
  if (step === undefined) return range(from, to, 1);
  if (!spec.steps) {
    throw invalid(
      `${spec.label} field '${entry}': EventBridge allows no '/' steps here; list the values instead.`,
    );
  }
  const size = spec.max - spec.min + 1;
  if (!/^\d+$/.test(step) || Number(step) < 1 || Number(step) > size) {
    throw invalid(
      `${spec.label} field step '${step}' in '${entry}' must be a whole number from 1 to ${size}.`,
    );
  }
  return range(from, to, Number(step));
}

const range = (from: number, to: number, step: number) => {
  const values: number[] = [];
  for (let value = from; value <= to; value += step) values.push(value);
  return values;
};

/** Validates a plain field (no `?`, `L`, `W`, `#`) and returns its values; names are upper-cased. */
function parsePlainField(text: string, spec: FieldSpec): { text: string; values: Set<number> } {
  if (text === '?') {
    throw invalid(`${spec.label} field cannot be '?': only day-of-month or day-of-week can.`);
  }
  const entries = text.split(',');
  if (entries.some((entry) => entry === '')) {
    throw invalid(`${spec.label} field '${text}' has an empty list entry.`);
  }
  const values = new Set(entries.flatMap((entry) => parseEntry(entry, spec)));
  return { text: text.toUpperCase(), values };
}

function parseDayOfMonth(text: string): { text: string; restricts: boolean } {
  const upper = text.toUpperCase();
  if (upper === '?') return { text: '?', restricts: false };
  if (upper === 'L') return { text: 'L', restricts: true };
  if (upper.includes('L')) {
    throw invalid(`Day-of-month field '${text}': 'L' (last day of the month) must stand alone.`);
  }
  if (upper.endsWith('W')) {
    const day = upper.slice(0, -1);
    if (!/^\d+$/.test(day)) {
      throw invalid(`Day-of-month field '${text}': 'W' follows a single day, e.g. '15W'.`);
    }
    parseValue(day, dayOfMonth, false);
    return { text: upper, restricts: true };
  }
  if (upper.includes('W'))
    throw invalid(`Day-of-month field '${text}': 'W' follows a single day, e.g. '15W'.`);
  const parsed = parsePlainField(upper, dayOfMonth);
  return { text: parsed.text, restricts: parsed.values.size < 31 };
}

/** `n#k` (k-th weekday n of the month) or `nL` (last weekday n); the field must hold nothing else. */
function parseSpecialWeekday(text: string, spec: FieldSpec): { weekday: number; suffix: string } | undefined {
  const upper = text.toUpperCase();
  if (!upper.includes('#') && !upper.includes('L')) return undefined;
  if (upper.includes(',')) {
    throw invalid(`Day-of-week field '${text}' may hold only one '#' or 'L' value, e.g. '2#1' or '6L'.`);
  }
  if (upper === 'L') {
    throw invalid(`Day-of-week field 'L' alone means Saturday: write SAT, or e.g. '6L' for the last Friday.`);
  }
  const hash = /^([A-Z0-9]+)#(\d+)$/.exec(upper);
  if (hash) {
    const nth = Number(hash[2]);
    if (nth < 1 || nth > 5) throw invalid(`Day-of-week field '${text}': the number after '#' must be 1-5.`);
    return { weekday: parseValue(hash[1] ?? '', spec, false), suffix: `#${nth}` };
  }
  const last = /^([A-Z0-9]+?)L$/.exec(upper);
  if (last) return { weekday: parseValue(last[1] ?? '', spec, false), suffix: 'L' };
  throw invalid(
    `Day-of-week field '${text}' is not valid: write e.g. '2#1' (first Monday) or '6L' (last Friday).`,
  );
}

function parseEventBridgeWeekday(text: string): { text: string; restricts: boolean } {
  if (text === '?') return { text: '?', restricts: false };
  const special = parseSpecialWeekday(text, eventBridgeWeekday);
  if (special) return { text: `${special.weekday}${special.suffix}`, restricts: true };
  const parsed = parsePlainField(text, eventBridgeWeekday);
  return { text: parsed.text, restricts: parsed.values.size < 7 };
}

/** A 5-field day-of-week (0-7, Sunday 0 or 7) in EventBridge's numbering (1-7, Sunday 1). */
function convertClassicWeekday(text: string): { text: string; restricts: boolean } {
  if (text === '?' || text === '*') return { text: '?', restricts: false };
  const special = parseSpecialWeekday(text, classicWeekday);
  if (special) return { text: `${(special.weekday % 7) + 1}${special.suffix}`, restricts: true };
  const { values } = parsePlainField(text, classicWeekday);
  const weekdays = new Set([...values].map((value) => value % 7));
  return { text: formatWeekdays([...weekdays].map((day) => day + 1)), restricts: weekdays.size < 7 };
}

/** Sorted, de-duplicated numbers with runs of three or more written as ranges: 1,2,3,5 → 1-3,5. */
export function formatList(values: number[], name: (value: number) => string = String): string {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let start = 0; start < sorted.length; ) {
    let end = start;
    while (end + 1 < sorted.length && sorted[end + 1] === (sorted[end] ?? 0) + 1) end += 1;
    const first = sorted[start] ?? 0;
    const last = sorted[end] ?? 0;
    if (end - start >= 2) parts.push(`${name(first)}-${name(last)}`);
    else for (let i = start; i <= end; i += 1) parts.push(name(sorted[i] ?? 0));
    start = end + 1;
  }
  return parts.join(',');
}

/** EventBridge weekday numbers (1 = SUN) as names: [2,3,4,5,6] → MON-FRI. */
export const formatWeekdays = (days: number[]) =>
  formatList(days, (day) => weekdayNames[day - 1] ?? String(day));

function unwrap(input: string): string {
  const text = input.trim().replace(/\s+/g, ' ');
  const call = /^(\w+)\s*\((.*)\)$/s.exec(text);
  if (!call) {
    if (/^\w+\s*\(/.test(text)) throw invalid(`Expression '${text}' is missing its closing ')'.`);
    return text;
  }
  const kind = (call[1] ?? '').toLowerCase();
  if (kind === 'rate') {
    throw invalid(
      `rate() expressions are not supported: use the form's fixed interval (every N minutes or hours).`,
    );
  }
  if (kind === 'at') {
    throw invalid(`at() is a one-time schedule: create a reservation for a single run instead.`);
  }
  if (kind !== 'cron')
    throw invalid(`Unknown expression '${kind}(…)': write cron fields, e.g. '0 9 ? * MON-FRI *'.`);
  const fields = (call[2] ?? '').trim();
  if (fields.split(' ').length !== 6) {
    throw invalid(`cron(…) needs EventBridge's 6 fields (minute hour day-of-month month day-of-week year).`);
  }
  return fields;
}

/**
 * Validates cron text and returns the EventBridge expression(s) with the same meaning. Two expressions only
 * when a 5-field expression restricts both day-of-month and day-of-week (cron runs on either; EventBridge
 * cannot say that in one expression).
 */
export function cronTextToEventBridge(input: string): string[] {
  const text = unwrap(input);
  if (text.startsWith('@')) {
    throw invalid(
      `Nicknames such as '${text}' are not supported: write the fields, e.g. '0 0 * * *' for daily.`,
    );
  }
  const fields = text === '' ? [] : text.split(' ');
  if (fields.length === 7) {
    throw invalid(
      'Cron expressions with a seconds field are not supported: schedules run at most once a minute. Use 5 fields (minute hour day-of-month month day-of-week) or 6 (… year).',
    );
  }
  if (fields.length !== 5 && fields.length !== 6) {
    throw invalid(
      `A cron expression has 5 fields (minute hour day-of-month month day-of-week) or EventBridge's 6 (… year); '${text}' has ${fields.length}.`,
    );
  }
  const [min = '', hr = '', dom = '', mon = '', dow = '', yr] = fields;
  const minutes = parsePlainField(min, minute).text;
  const hours = parsePlainField(hr, hour).text;
  const days = parseDayOfMonth(dom);
  const months = parsePlainField(mon, month).text;
  if (yr !== undefined) {
    const weekdays = parseEventBridgeWeekday(dow);
    if (days.text === '?' && weekdays.text === '?') {
      throw invalid("Only one of day-of-month and day-of-week can be '?': put '*' in the other.");
    }
    if (days.text !== '?' && weekdays.text !== '?') {
      throw invalid(
        `Exactly one of day-of-month and day-of-week must be '?' (EventBridge cannot restrict both): e.g. '${minutes} ${hours} ? ${months} ${weekdays.text} ${yr.toUpperCase()}'. Seconds fields are not supported.`,
      );
    }
    const years = parsePlainField(yr, year).text;
    return [[minutes, hours, days.text, months, weekdays.text, years].join(' ')];
  }
  const weekdays = convertClassicWeekday(dow);
  const head = `${minutes} ${hours}`;
  if (days.restricts && weekdays.restricts) {
    return [`${head} ${days.text} ${months} ? *`, `${head} ? ${months} ${weekdays.text} *`];
  }
  if (weekdays.restricts) return [`${head} ? ${months} ${weekdays.text} *`];
  return [`${head} ${days.text === '?' ? '*' : days.text} ${months} ? *`];
}
