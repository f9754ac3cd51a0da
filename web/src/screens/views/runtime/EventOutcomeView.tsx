/** What a button's, a form's or a row's events ended with, next to where they started. */
import { useT } from '../../../i18n/index.tsx';
import { ViewReviewNotice } from './ReviewNotice.tsx';
import type { EventOutcome } from './runtime.tsx';
import { ViewProblem } from './ViewProblem.tsx';

export function EventOutcomeView({ outcome }: { outcome: EventOutcome | undefined }) {
  const t = useT();
  if (!outcome) return null;
  if (outcome.kind === 'failed') return <ViewProblem error={outcome.error} />;
  if (outcome.kind === 'review') return <ViewReviewNotice review={outcome.review} />;
  if (!outcome.actionRan) return null;
  return (
    <p className="view-done muted small" role="status">
      {t('views.event.done')}
    </p>
  );
}
