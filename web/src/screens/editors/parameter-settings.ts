/**
 * The settings of a parameter the action editor shows as form fields (default, choices, min/max,
 * pattern, format), per kind, and their conversion to and from the definition. Whatever else a
 * parameter has stays in its "other settings" JSON.
 */
import type { Parameter } from '../../api/types.ts';

export interface ParameterSettings {
  /** Text as typed: a number for number parameters, `true`/`false` for boolean ones. */
  defaultValue: string;
  /** One choice per line: `value` or `value | label`. */
  choices: string;
  min: string;
  max: string;
  pattern: string;
  format: string;
}

export type SettingName = keyof ParameterSettings;
type Kind = Parameter['kind'];

export const emptySettings: ParameterSettings = {
  defaultValue: '',
  choices: '',
  min: '',
  max: '',
  pattern: '',
  format: '',
};

/** Which settings each kind has as form fields. */
export const settingsOfKind: Record<string, readonly SettingName[]> = {
  text: ['defaultValue', 'choices', 'pattern'],
  number: ['defaultValue', 'choices', 'min', 'max'],
  boolean: ['defaultValue', 'format'],
  date: ['defaultValue'],
  array: ['choices', 'format'],
  tuple: ['format'],
  sql: ['defaultValue'],
};

/** The choices of `format` per kind (the API's own values). */
export const formatsOfKind: Record<string, readonly string[]> = {
  boolean: ['boolean', 'string'],
  array: ['sql', 'json', 'delimiter'],
  tuple: ['json', 'delimiter'],
};

/** The definition member each setting is written to. */
const memberOf: Record<SettingName, string> = {
  defaultValue: 'default',
  choices: 'choices',
  min: 'min',
  max: 'max',
  pattern: 'pattern',
  format: 'format',
};
export const settingMember = (setting: SettingName) => memberOf[setting];

type Choice = { value: unknown; label: unknown };
const isChoiceList = (value: unknown): value is Choice[] =>
  Array.isArray(value) &&
  value.every(
    (c) =>
      c !== null &&
      typeof c === 'object' &&
      (typeof c.value === 'string' || typeof c.value === 'number') &&
      typeof c.label === 'string' &&
      !String(c.value).includes('|'),
  );

/**
 * Takes the settings the form shows out of a parameter's members; what the form cannot show
 * (a list default, a boolean choice) is left in `rest`.
 */
export function splitSettings(
  kind: Kind,
  members: Record<string, unknown>,
): { settings: ParameterSettings; rest: Record<string, unknown> } {
  const rest = { ...members };
  const settings = { ...emptySettings };
  const shown = settingsOfKind[kind] ?? [];
  const take = (setting: SettingName, text: string) => {
    settings[setting] = text;
    delete rest[memberOf[setting]];
  };
  const value = (setting: SettingName) => members[memberOf[setting]];
  if (shown.includes('defaultValue')) {
    const v = value('defaultValue');
    if ((kind === 'number' && typeof v === 'number') || (kind === 'boolean' && typeof v === 'boolean'))
      take('defaultValue', String(v));
    else if (kind !== 'number' && kind !== 'boolean' && typeof v === 'string') take('defaultValue', v);
  }
  if (shown.includes('choices') && isChoiceList(value('choices'))) {
    const lines = (value('choices') as Choice[]).map((c) =>
      String(c.label) === String(c.value) ? String(c.value) : `${c.value} | ${c.label}`,
    );
    take('choices', lines.join('\n'));
  }
  for (const setting of ['min', 'max'] as const) {
    if (shown.includes(setting) && typeof value(setting) === 'number') take(setting, String(value(setting)));
  }
  for (const setting of ['pattern', 'format'] as const) {
    if (shown.includes(setting) && typeof value(setting) === 'string') take(setting, String(value(setting)));
  }
  return { settings, rest };
}

/** The members the form's settings make for a parameter of `kind` (only the kind's own, only filled ones). */
export function settingsMembers(kind: Kind, settings: ParameterSettings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const asNumber = (text: string) => (text.trim() === '' ? undefined : Number(text.trim()));
  for (const setting of settingsOfKind[kind] ?? []) {
    const text = settings[setting];
    if (text.trim() === '') continue;
    if (setting === 'defaultValue') {
      out.default = kind === 'number' ? asNumber(text) : kind === 'boolean' ? text.trim() === 'true' : text;
    } else if (setting === 'choices') {
      out.choices = text
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
        .map((line) => {
          const at = line.indexOf('|');
          const raw = (at < 0 ? line : line.slice(0, at)).trim();
          const label = at < 0 ? raw : line.slice(at + 1).trim() || raw;
          return { value: kind === 'number' ? Number(raw) : raw, label };
        });
    } else if (setting === 'min' || setting === 'max') {
      out[setting] = asNumber(text);
    } else {
      out[setting] = text;
    }
  }
  return out;
}
