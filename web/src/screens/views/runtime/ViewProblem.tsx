/**
 * An error shown where it happened (a component, a button's events, a query): expression errors
 * and failed or refused actions in the viewer's language; the rest of the view keeps working.
 */
import { ApiError } from '../../../api/client.ts';
import { ErrorBanner } from '../../../components/index.ts';
import { type Translate, useT } from '../../../i18n/index.tsx';
import { ExpressionError } from '../expressions/evaluate.ts';
import { ExecutionFailed } from '../view-api.ts';
import { UnsafeUrl } from './runtime.tsx';

export function problemText(t: Translate, error: unknown): string {
  if (error instanceof ExpressionError)
    return t('views.error.expression', { detail: t(error.key, error.vars) });
  if (error instanceof ExecutionFailed) return t('views.error.actionFailed', { detail: error.message });
  if (error instanceof UnsafeUrl) return t('views.error.unsafeUrl', { url: error.url });
  if (error instanceof Error) return t('views.error.other', { detail: error.message });
  return t('views.error.other', { detail: String(error) });
}

export function ViewProblem({ error, where }: { error: unknown; where?: string }) {
  const t = useT();
  if (error instanceof ApiError) {
    return (
      <div className="view-problem" data-where={where}>
        {error.status === 403 ? <p className="view-problem-hint">{t('views.error.forbidden')}</p> : null}
        <ErrorBanner error={error} />
      </div>
    );
  }
  return (
    <div className="view-problem error-banner" role="alert" data-where={where}>
      <div className="error-banner-text">{problemText(t, error)}</div>
    </div>
  );
}
