/**
 * Who a cron job runs as: me, or one of the project's service accounts (listed from the API, so
 * nobody types an id). Editing a job that another member set keeps their executor unless changed:
 * the server only lets a member name themselves as a user executor (docs/scheduling.md).
 */
import { api } from '../../api/client.ts';
import type { Principal } from '../../api/types.ts';
import { useWorkspace } from '../../app/workspace.tsx';
import { Field, useAsync } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';
import { identityPaths, type ServiceAccount } from '../identity/api.ts';
import type { CronJobInput, Executor } from './api.ts';

/** `keep` (the stored executor, another member), `me`, or `sa:<service account id>`. */
export type ExecutorChoice = string;

export function initialExecutorChoice(stored: Executor | undefined, me: Principal): ExecutorChoice {
  if (!stored) return 'me';
  if (stored.kind === 'service_account') return `sa:${stored.id}`;
  return stored.id === me.id ? 'me' : 'keep';
}

/**
 * The `executor` member of the save body. Unchanged, it is left out and the server keeps the stored
 * executor (on create: the member creating the job), so editing another member's job is allowed.
 */
export function executorOfChoice(
  choice: ExecutorChoice,
  stored: Executor | undefined,
  me: Principal,
): Pick<CronJobInput, 'executor'> {
  if (choice === initialExecutorChoice(stored, me) || choice === 'keep') return {};
  if (choice.startsWith('sa:')) return { executor: { kind: 'service_account', id: choice.slice(3) } };
  return { executor: { kind: 'user', id: me.id } };
}

export function ExecutorSelect({
  value,
  onChange,
  stored,
  me,
  error,
}: {
  value: ExecutorChoice;
  onChange(choice: ExecutorChoice): void;
  stored: Executor | undefined;
  me: Principal;
  error: string | undefined;
}) {
  const t = useT();
  const { projectId } = useWorkspace();
  const accounts = useAsync(
    () => api.get<{ data: ServiceAccount[] }>(identityPaths.serviceAccounts(projectId)).then((r) => r.data),
    [projectId],
  );
  const listed = accounts.data ?? [];
  // A stored account that is gone from the list still shows, so the select never lies about the job.
  const storedMissing =
    stored?.kind === 'service_account' && !listed.some((account) => account.id === stored.id)
      ? stored
      : undefined;
  const loadError = accounts.error ? t('scheduling.executor.loadFailed') : undefined;
  return (
    <Field
      label={t('scheduling.field.executor')}
      hint={loadError ?? t('scheduling.executor.hint')}
      error={error}
    >
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        {initialExecutorChoice(stored, me) === 'keep' ? (
          <option value="keep">
            {t('scheduling.executor.keep', { email: stored?.email ?? stored?.id ?? '' })}
          </option>
        ) : null}
        <option value="me">{t('scheduling.executor.meWithEmail', { email: me.email ?? '' })}</option>
        {listed.length > 0 || storedMissing ? (
          <optgroup label={t('scheduling.executor.serviceAccounts')}>
            {listed.map((account) => (
              <option key={account.id} value={`sa:${account.id}`} disabled={account.disabled}>
                {account.disabled
                  ? t('scheduling.executor.accountDisabled', { name: account.name, email: account.email })
                  : t('scheduling.executor.account', { name: account.name, email: account.email })}
              </option>
            ))}
            {storedMissing ? (
              <option value={`sa:${storedMissing.id}`}>{storedMissing.email ?? storedMissing.id}</option>
            ) : null}
          </optgroup>
        ) : null}
      </select>
    </Field>
  );
}
