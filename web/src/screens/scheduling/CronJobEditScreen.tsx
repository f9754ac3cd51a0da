/**
 * Creating or editing a cron job: name, action and its arguments (the core's parameter inputs),
 * the schedule with its live preview, time zone, executor, overlap policy. The server's field
 * errors are shown next to the inputs their pointers name.
 */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { ApiError, api } from '../../api/client.ts';
import { errorAt, pointerErrors, unclaimedErrors } from '../../api/field-errors.ts';
import { Link, navigate } from '../../app/router.tsx';
import { useSession } from '../../app/session.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import { Button, ErrorBanner, Field, useAsync, useToast } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { type Drafts, errorsByParameter } from '../actions/parameter-values.ts';
import { ActionSelect, ArgumentInputs, useActionArguments, useActionList } from './action-arguments.tsx';
import { type CronJob, type CronJobInput, type SchedulePreview, schedulingPaths } from './api.ts';
import {
  type ExecutorChoice,
  ExecutorSelect,
  executorOfChoice,
  initialExecutorChoice,
} from './ExecutorSelect.tsx';
import { type PreviewSchedule, ScheduleForm } from './ScheduleForm.tsx';
import { defaultScheduleDraft, draftOf, type ScheduleDraft, scheduleOf } from './schedule-draft.ts';

export function CronJobEditScreen({ params }: { params: Record<string, string> }) {
  const t = useT();
  const toast = useToast();
  const workspace = useWorkspace();
  const { user } = useSession();
  const { projectId, environmentId } = workspace;
  const jobId = params.jobId;
  const existing = useAsync<CronJob | undefined>(
    () =>
      jobId
        ? api.get<CronJob>(schedulingPaths.cronJob(projectId, environmentId, jobId))
        : Promise.resolve(undefined),
    [projectId, environmentId, jobId],
  );
  const actions = useActionList();
  const [name, setName] = useState('');
  const [actionId, setActionId] = useState('');
  const [draft, setDraft] = useState<ScheduleDraft>(defaultScheduleDraft);
  const [timeZone, setTimeZone] = useState('Asia/Tokyo');
  const [executor, setExecutor] = useState<ExecutorChoice>('me');
  const [overlap, setOverlap] = useState<'allow' | 'skip'>('allow');
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<unknown>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [argumentErrors, setArgumentErrors] = useState<Record<string, string>>({});
  const args = useActionArguments(actionId, existing.data?.arguments);

  useEffect(() => {
    const job = existing.data;
    if (!job) return;
    setName(job.name);
    setActionId(job.actionId);
    setDraft(draftOf(job.schedule));
    setTimeZone(job.timeZone);
    setOverlap(job.overlap);
    setExecutor(initialExecutorChoice(job.executor, user));
  }, [existing.data, user]);

  const preview = useCallback<PreviewSchedule>(
    (body) => api.post<SchedulePreview>(schedulingPaths.cronPreview(projectId, environmentId), body),
    [projectId, environmentId],
  );

  /** A change answers the last refusal for what changed: its messages go, the others stay. */
  const edited = (...keys: string[]) => {
    setFailure(undefined);
    setErrors((current) => withoutKeys(current, keys));
  };
  const setArgumentDrafts = (update: (drafts: Drafts) => Drafts) => {
    setFailure(undefined);
    args.setDrafts((previous) => {
      const next = update(previous);
      const changed = Object.keys(next).filter((name) => next[name] !== previous[name]);
      if (changed.length > 0) setArgumentErrors((current) => withoutKeys(current, changed));
      return next;
    });
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const built = scheduleOf(draft);
    const bound = args.build();
    const clientArgumentErrors = Object.fromEntries(
      Object.entries(bound.errors).map(([key, e]) => [key, t(e.key, e.vars)]),
    );
    setArgumentErrors(clientArgumentErrors);
    // Said here in the user's language rather than as the API's schema message.
    const required: Record<string, string> = {
      ...(name.trim() ? {} : { name: t('scheduling.form.nameRequired') }),
      ...(actionId ? {} : { actionId: t('scheduling.form.actionRequired') }),
    };
    setErrors(required);
    if (!built.ok || Object.keys(clientArgumentErrors).length > 0 || Object.keys(required).length > 0) return;
    const body: CronJobInput = {
      name,
      actionId,
      schedule: built.schedule,
      timeZone,
      arguments: bound.arguments,
      overlap,
      ...executorOfChoice(executor, existing.data?.executor, user),
      ...(existing.data ? { version: existing.data.version, state: existing.data.state } : {}),
    };
    setSaving(true);
    setFailure(undefined);
    setErrors({});
    try {
      const saved = jobId
        ? await api.put<CronJob>(schedulingPaths.cronJob(projectId, environmentId, jobId), body)
        : await api.post<CronJob>(schedulingPaths.cronJobs(projectId, environmentId), body);
      toast(t('scheduling.cron.saved', { name: saved.name }));
      navigate(workspace.href(`/cron-jobs/${encodeURIComponent(saved.id)}`));
    } catch (error) {
      setFailure(error);
      setErrors(pointerErrors(error));
      if (error instanceof ApiError)
        setArgumentErrors(errorsByParameter(error.errors.filter((e) => /^#?\/arguments\//.test(e.pointer))));
    } finally {
      setSaving(false);
    }
  };

  if (existing.error) return <ErrorBanner error={existing.error} />;
  const claimed = ['name', 'actionId', 'schedule', 'timeZone', 'arguments', 'executor'];
  const leftOver = unclaimedErrors(errors, claimed);
  return (
    <section className="screen" aria-labelledby="cron-edit-title">
      <Link href={workspace.href('/cron-jobs')} className="back-link">
        ← {t('scheduling.cron.back')}
      </Link>
      <h1 id="cron-edit-title">{jobId ? t('scheduling.cron.editTitle') : t('scheduling.cron.newTitle')}</h1>
      {failure && leftOver.length === 0 && Object.keys(errors).length === 0 ? (
        <ErrorBanner error={failure} />
      ) : null}
      {leftOver.length ? (
        <div className="error-banner" role="alert">
          {leftOver.join(' ')}
        </div>
      ) : null}
      <form className="editor-form" onSubmit={save} noValidate aria-label={t('scheduling.cron.formLabel')}>
        <Field label={t('scheduling.field.name')} required error={errorAt(errors, 'name')}>
          <input
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              edited('name');
            }}
            maxLength={200}
          />
        </Field>
        <ActionSelect
          value={actionId}
          onChange={(next) => {
            setActionId(next);
            edited('actionId', 'arguments');
            setArgumentErrors({});
          }}
          error={errorAt(errors, 'actionId')}
          actions={actions.data}
        />
        <ArgumentInputs
          loaded={args.loaded.data}
          drafts={args.drafts}
          setDrafts={setArgumentDrafts}
          errors={argumentErrors}
        />
        <ScheduleForm
          draft={draft}
          onChange={(next) => {
            setDraft(next);
            edited('schedule');
          }}
          timeZone={timeZone}
          onTimeZoneChange={(next) => {
            setTimeZone(next);
            edited('timeZone');
          }}
          preview={preview}
          errors={{
            days: errorAt(errors, 'schedule/days'),
            times: errorAt(errors, 'schedule/times'),
            expression: errorAt(errors, 'schedule/expression') ?? errors.schedule,
            timeZone: errorAt(errors, 'timeZone'),
          }}
        />
        <ExecutorSelect
          value={executor}
          onChange={(next) => {
            setExecutor(next);
            edited('executor');
          }}
          stored={existing.data?.executor}
          me={user}
          error={errorAt(errors, 'executor')}
        />
        <Field label={t('scheduling.field.overlap')} hint={t('scheduling.overlap.hint')}>
          <select value={overlap} onChange={(event) => setOverlap(event.target.value as 'allow' | 'skip')}>
            <option value="allow">{t('scheduling.overlap.allow')}</option>
            <option value="skip">{t('scheduling.overlap.skip')}</option>
          </select>
        </Field>
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={saving}>
            {t('scheduling.cron.save')}
          </Button>
        </div>
      </form>
    </section>
  );
}

/** `errors` without these keys and the keys below them (`schedule` takes `schedule/times/0` too). */
function withoutKeys(errors: Record<string, string>, keys: string[]): Record<string, string> {
  const gone = (path: string) => keys.some((key) => path === key || path.startsWith(`${key}/`));
  return Object.fromEntries(Object.entries(errors).filter(([path]) => !gone(path)));
}
