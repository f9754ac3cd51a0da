/** In place of a query's data while it waits for its arguments (query-readiness.ts): what it waits for. */
import { useT } from '../../../i18n/index.tsx';
import type { QueryState } from './runtime.tsx';

export function QueryWaiting({ queryId, state }: { queryId: string; state: QueryState }) {
  const t = useT();
  const names = state.waitingFor ?? [];
  return (
    <p className="muted small view-waiting" role="status">
      {names.length > 0
        ? t('views.query.waiting', { names: names.join(', ') })
        : t('views.query.noAction', { query: queryId })}
    </p>
  );
}
