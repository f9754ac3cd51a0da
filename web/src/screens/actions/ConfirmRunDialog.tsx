/**
 * The confirmation a data-changing action needs before it runs from the console, a view or a batch
 * (docs/governance.md): it names the action, the environment and the arguments. The server checks it
 * (`confirm: true`), so a view cannot skip it; the public API and cron jobs never see it.
 */
import { Dialog } from '../../components/index.ts';
import { useT } from '../../i18n/index.tsx';

export interface RunToConfirm {
  actionName: string;
  environmentName: string;
  arguments: Record<string, unknown>;
  /** A view author's own question for this run (a view's runAction `confirm`), shown first. */
  message?: string;
}

export function ConfirmRunDialog(props: {
  subject: RunToConfirm | undefined;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const t = useT();
  const { subject } = props;
  const entries = Object.entries(subject?.arguments ?? {});
  return (
    <Dialog
      open={subject !== undefined}
      title={t('confirmRun.title', {
        action: subject?.actionName ?? '',
        environment: subject?.environmentName ?? '',
      })}
      confirmLabel={subject?.message ? t('confirmRun.confirmAsked') : t('confirmRun.confirm')}
      danger
      busy={props.busy}
      onConfirm={props.onConfirm}
      onCancel={props.onCancel}
    >
      {subject?.message ? <p className="confirm-message">{subject.message}</p> : null}
      {/* The author's question may come before a reading action too: it does not claim data changes. */}
      <p>
        {t(subject?.message ? 'confirmRun.detailAsked' : 'confirmRun.detail', {
          environment: subject?.environmentName ?? '',
        })}
      </p>
      {entries.length ? (
        <dl className="confirm-arguments">
          {entries.map(([name, value]) => (
            <div key={name}>
              <dt className="mono">{name}</dt>
              <dd className="mono">{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted">{t('confirmRun.noArguments')}</p>
      )}
    </Dialog>
  );
}

/** The server's 409 when a data-changing run was sent unconfirmed (a record saved before effects existed). */
export const needsConfirmation = (error: unknown): boolean =>
  (error as { body?: { reason?: unknown } } | undefined)?.body?.reason === 'confirmation_required';
