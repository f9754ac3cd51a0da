/** One-time runs: the environment's reservations, a form to reserve an action at a time, cancel. */
import { type FormEvent, useState } from 'react';
import { ApiError, api } from '../../api/client.ts';
import { errorAt, pointerErrors } from '../../api/field-errors.ts';
import { Link } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import {
  Button,
  dueSoon,
  EmptyState,
  ErrorBanner,
  Field,
  ListTable,
  useAsync,
  useRefreshWhile,
  useToast,
} from '../../components/index.ts';
import { formatInZone } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { errorsByParameter } from '../actions/parameter-values.ts';
import { ActionSelect, ArgumentInputs, useActionArguments, useActionList } from './action-arguments.tsx';
import { type Reservation, schedulingPaths } from './api.ts';
import { TimeZoneOptions } from './TimeZoneOptions.tsx';

export function ReservationsScreen() {
  const t = useT();
  const toast = useToast();
  const { language } = useLanguage();
  const workspace = useWorkspace();
  const { projectId, environmentId } = workspace;
  const list = useAsync(
    () => api.get<{ data: Reservation[] }>(schedulingPaths.reservations(projectId, environmentId)),
    [projectId, environmentId],
  );
  useRefreshWhile(
    Boolean(
      list.data?.data.some(
        (reservation) =>
          reservation.status === 'running' ||
          (reservation.status === 'scheduled' && dueSoon(reservation.runAt)),
      ),
    ),
    list,
  );
  const actions = useActionList();
  const [actionId, setActionId] = useState('');
  const [runAt, setRunAt] = useState('');
  const [timeZone, setTimeZone] = useState('Asia/Tokyo');
  const args = useActionArguments(actionId, undefined);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [argumentErrors, setArgumentErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>();
  const [saving, setSaving] = useState(false);
  const [cancelling, setCancelling] = useState<string>();

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const bound = args.build();
    const clientErrors = Object.fromEntries(
      Object.entries(bound.errors).map(([k, e]) => [k, t(e.key, e.vars)]),
    );
    setArgumentErrors(clientErrors);
    if (!runAt) {
      setErrors({ runAt: t('scheduling.reservations.runAtRequired') });
      return;
    }
    if (Object.keys(clientErrors).length) return;
    setSaving(true);
    setFailure(undefined);
    setErrors({});
    try {
      await api.post<Reservation>(schedulingPaths.reservations(projectId, environmentId), {
        actionId,
        arguments: bound.arguments,
        // What the person typed, in the zone they chose: the API reads it there (decision 0085).
        runAt,
        timeZone,
      });
      toast(t('scheduling.reservations.created'));
      setRunAt('');
      list.reload();
    } catch (error) {
      setFailure(error);
      setErrors(pointerErrors(error));
      if (error instanceof ApiError)
        setArgumentErrors(errorsByParameter(error.errors.filter((e) => /arguments\//.test(e.pointer))));
    } finally {
      setSaving(false);
    }
  };

  const cancel = async (reservation: Reservation) => {
    setCancelling(reservation.id);
    try {
      await api.post(schedulingPaths.reservationCancel(projectId, environmentId, reservation.id));
      toast(t('scheduling.reservations.cancelled'));
      list.reload();
    } catch (error) {
      setFailure(error);
    } finally {
      setCancelling(undefined);
    }
  };

  return (
    <section className="screen" aria-labelledby="reservations-title">
      <h1 id="reservations-title">{t('scheduling.reservations.title')}</h1>
      <ErrorBanner
        error={list.error ?? failure}
        onDismiss={failure ? () => setFailure(undefined) : undefined}
      />
      <form
        className="editor-form"
        onSubmit={create}
        noValidate
        aria-label={t('scheduling.reservations.new')}
      >
        <h2 className="section-title">{t('scheduling.reservations.new')}</h2>
        <ActionSelect
          value={actionId}
          onChange={setActionId}
          actions={actions.data}
          error={errorAt(errors, 'actionId')}
        />
        <ArgumentInputs
          loaded={args.loaded.data}
          drafts={args.drafts}
          setDrafts={args.setDrafts}
          errors={argumentErrors}
        />
        <div className="inline-fields">
          <Field
            label={`${t('scheduling.reservations.runAt')} (${timeZone})`}
            required
            error={errorAt(errors, 'runAt')}
          >
            <input type="datetime-local" value={runAt} onChange={(event) => setRunAt(event.target.value)} />
          </Field>
          <Field label={t('scheduling.form.timeZone')} error={errorAt(errors, 'timeZone')}>
            <select value={timeZone} onChange={(event) => setTimeZone(event.target.value)}>
              <TimeZoneOptions />
            </select>
          </Field>
        </div>
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={saving}>
            {t('scheduling.reservations.create')}
          </Button>
        </div>
      </form>
      <ListTable
        label={t('scheduling.reservations.title')}
        columns={[
          t('scheduling.reservations.runAt'),
          t('scheduling.field.action'),
          t('scheduling.field.state'),
          t('scheduling.field.executor'),
          t('scheduling.runs.execution'),
        ]}
        rowActions
        items={list.data?.data}
        empty={<EmptyState title={t('scheduling.reservations.none')} />}
        row={(reservation) => (
          <tr key={reservation.id}>
            <td>{formatInZone(reservation.runAt, reservation.timeZone, language)}</td>
            <td className="mono">{reservation.actionId}</td>
            <td>
              <span className={`run-status run-${reservation.status}`}>
                {t(`scheduling.reservationStatus.${reservation.status}`)}
              </span>
              {reservation.reason ? <span className="muted small"> {reservation.reason}</span> : null}
            </td>
            <td>{reservation.executor.email ?? reservation.executor.id}</td>
            <td>
              {reservation.executionId ? (
                <Link
                  href={workspace.href(`/executions/${encodeURIComponent(reservation.executionId)}`)}
                  className="mono"
                >
                  {reservation.executionId}
                </Link>
              ) : (
                '—'
              )}
            </td>
            <td>
              {reservation.status === 'scheduled' ? (
                <Button
                  className="btn-small"
                  variant="danger"
                  busy={cancelling === reservation.id}
                  onClick={() => void cancel(reservation)}
                >
                  {t('scheduling.reservations.cancel')}
                </Button>
              ) : null}
            </td>
          </tr>
        )}
      />
    </section>
  );
}
