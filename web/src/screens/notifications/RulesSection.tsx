/** Rules: which events of which action, cron job or batches of an action go to which targets. */
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client.ts';
import { errorAt, pointerErrors } from '../../api/field-errors.ts';
import { useWorkspace } from '../../app/workspace.tsx';
import { Button, ErrorBanner, Field, ListTable, useAsync } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import {
  type EventType,
  eventTypes,
  notificationPaths,
  type Rule,
  type Settings,
  type SubjectKind,
  subjectKinds,
} from './api.ts';

interface Named {
  id: string;
  name: string;
}

export function RulesSection({ settings, onChange }: { settings: Settings; onChange(): void }) {
  const t = useT();
  const { projectId, environmentId } = useWorkspace();
  const actions = useAsync(
    () => api.get<{ data: Named[] }>(notificationPaths.actions(projectId)),
    [projectId],
  );
  const cronJobs = useAsync(
    () => api.get<{ data: Named[] }>(notificationPaths.cronJobs(projectId, environmentId)),
    [projectId, environmentId],
  );
  const [kind, setKind] = useState<SubjectKind>('action');
  const [subjectId, setSubjectId] = useState('*');
  const [events, setEvents] = useState<EventType[]>(['failure', 'recovery']);
  const [targetIds, setTargetIds] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>();

  const subjects = (kind === 'cron_job' ? cronJobs.data?.data : actions.data?.data) ?? [];
  const nameOf = (rule: Rule) => {
    if (rule.subject.id === '*') return t(`notifications.subject.any.${rule.subject.kind}`);
    const list = rule.subject.kind === 'cron_job' ? cronJobs.data?.data : actions.data?.data;
    return list?.find((s) => s.id === rule.subject.id)?.name ?? rule.subject.id;
  };
  const toggle = <T,>(list: T[], value: T) =>
    list.includes(value) ? list.filter((v) => v !== value) : [...list, value];

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setFailure(undefined);
    try {
      await api.post(notificationPaths.rules(projectId), {
        subject: { kind, id: subjectId },
        events,
        targetIds,
      });
      setTargetIds([]);
      onChange();
    } catch (error) {
      setFailure(error);
      setErrors(pointerErrors(error));
    }
  };
  const remove = async (rule: Rule) => {
    try {
      await api.del(notificationPaths.rule(projectId, rule.id));
      onChange();
    } catch (error) {
      setFailure(error);
    }
  };
  const targetName = (id: string) => settings.targets.find((target) => target.id === id)?.name ?? id;

  return (
    <>
      <h2 className="section-title">{t('notifications.rules.title')}</h2>
      <ErrorBanner error={Object.keys(errors).length ? undefined : failure} />
      <ListTable
        label={t('notifications.rules.title')}
        columns={[
          t('notifications.rules.subject'),
          t('notifications.rules.events'),
          t('notifications.rules.targets'),
        ]}
        rowActions
        items={settings.rules}
        empty={<p className="muted">{t('notifications.rules.none')}</p>}
        row={(rule) => (
          <tr key={rule.id}>
            <td>
              {t(`notifications.subject.${rule.subject.kind}`)}: {nameOf(rule)}
            </td>
            <td>{rule.events.map((e) => t(`notifications.event.${e}`)).join(', ')}</td>
            <td>{rule.targetIds.map(targetName).join(', ')}</td>
            <td>
              <Button className="btn-small" variant="danger" onClick={() => void remove(rule)}>
                {t('notifications.delete')}
              </Button>
            </td>
          </tr>
        )}
      />
      <form className="editor-form" onSubmit={create} noValidate aria-label={t('notifications.rules.new')}>
        <h3 className="section-title">{t('notifications.rules.new')}</h3>
        <div className="inline-fields">
          <Field label={t('notifications.rules.subjectKind')}>
            <select
              value={kind}
              onChange={(e) => {
                setKind(e.target.value as SubjectKind);
                setSubjectId('*');
              }}
            >
              {subjectKinds.map((k) => (
                <option key={k} value={k}>
                  {t(`notifications.subject.${k}`)}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('notifications.rules.subject')} error={errorAt(errors, 'subject')}>
            <select value={subjectId} onChange={(e) => setSubjectId(e.target.value)}>
              <option value="*">{t(`notifications.subject.any.${kind}`)}</option>
              {subjects.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field
          label={t('notifications.rules.events')}
          group
          error={errorAt(errors, 'events')}
          hint={t('notifications.rules.eventsHint')}
        >
          <span className="inline-fields">
            {eventTypes.map((type) => (
              <label key={type} className="checkbox">
                <input
                  type="checkbox"
                  checked={events.includes(type)}
                  onChange={() => setEvents((current) => toggle(current, type))}
                />{' '}
                {t(`notifications.event.${type}`)}
              </label>
            ))}
          </span>
        </Field>
        <Field label={t('notifications.rules.targets')} group error={errorAt(errors, 'targetIds')}>
          <span className="inline-fields">
            {settings.targets.length === 0 ? (
              <span className="muted">{t('notifications.rules.addTargetFirst')}</span>
            ) : null}
            {settings.targets.map((target) => (
              <label key={target.id} className="checkbox">
                <input
                  type="checkbox"
                  checked={targetIds.includes(target.id)}
                  onChange={() => setTargetIds((current) => toggle(current, target.id))}
                />{' '}
                {target.name}
              </label>
            ))}
          </span>
        </Field>
        <div className="form-actions">
          <Button type="submit" variant="primary" disabled={targetIds.length === 0 || events.length === 0}>
            {t('notifications.rules.add')}
          </Button>
        </div>
      </form>
    </>
  );
}
