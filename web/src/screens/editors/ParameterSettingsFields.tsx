/** The form fields of a parameter's common settings (parameter-settings.ts), for its kind only. */
import { errorAt } from '../../api/field-errors.ts';
import { Field } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import {
  formatsOfKind,
  type ParameterSettings,
  type SettingName,
  settingMember,
  settingsOfKind,
} from './parameter-settings.ts';

export function ParameterSettingsFields({
  index,
  kind,
  settings,
  errors,
  onChange,
}: {
  index: number;
  kind: string;
  settings: ParameterSettings;
  errors: Record<string, string>;
  onChange(patch: Partial<ParameterSettings>): void;
}) {
  const t = useT();
  const shown = settingsOfKind[kind] ?? [];
  if (shown.length === 0) return null;
  const n = index + 1;
  const errorOf = (setting: SettingName) => errorAt(errors, `parameters/${index}/${settingMember(setting)}`);
  const text = (setting: SettingName, props: { type?: string; className?: string } = {}) => (
    <Field
      key={setting}
      label={t(`editors.actions.setting.${setting}`, { n })}
      error={errorOf(setting)}
      hint={setting === 'pattern' ? t('editors.actions.setting.patternHint') : undefined}
    >
      <input
        type={props.type ?? 'text'}
        className={props.className}
        value={settings[setting]}
        onChange={(e) => onChange({ [setting]: e.target.value })}
      />
    </Field>
  );
  return (
    <div className="inline-fields parameter-settings">
      {shown.map((setting) => {
        if (setting === 'defaultValue' && kind === 'boolean') {
          return (
            <Field
              key={setting}
              label={t('editors.actions.setting.defaultValue', { n })}
              error={errorOf(setting)}
            >
              <select
                value={settings.defaultValue}
                onChange={(e) => onChange({ defaultValue: e.target.value })}
              >
                <option value="">{t('editors.actions.setting.none')}</option>
                <option value="true">true</option>
                <option value="false">false</option>
              </select>
            </Field>
          );
        }
        if (setting === 'format') {
          return (
            <Field key={setting} label={t('editors.actions.setting.format', { n })} error={errorOf(setting)}>
              <select value={settings.format} onChange={(e) => onChange({ format: e.target.value })}>
                {kind === 'boolean' ? <option value="">{t('editors.actions.setting.none')}</option> : null}
                {(formatsOfKind[kind] ?? []).map((format) => (
                  <option key={format} value={format}>
                    {t(`editors.actions.format.${format}`)}
                  </option>
                ))}
              </select>
            </Field>
          );
        }
        if (setting === 'choices') {
          return (
            <Field
              key={setting}
              label={t('editors.actions.setting.choices', { n })}
              hint={t('editors.actions.setting.choicesHint')}
              error={errorOf(setting)}
            >
              <textarea
                rows={3}
                value={settings.choices}
                onChange={(e) => onChange({ choices: e.target.value })}
              />
            </Field>
          );
        }
        if (setting === 'min' || setting === 'max' || (setting === 'defaultValue' && kind === 'number'))
          return text(setting, { type: 'number' });
        if (setting === 'pattern') return text(setting, { className: 'mono' });
        if (setting === 'defaultValue' && kind === 'date') return text(setting, { type: 'date' });
        return text(setting);
      })}
    </div>
  );
}
