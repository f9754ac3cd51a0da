/** A review-gated action called from a view: the request it opened, with a link to it. */
import type { ReviewRequested } from '../../../api/types.ts';
import { Link } from '../../../app/router.tsx';
import { useWorkspace } from '../../../app/workspace.tsx';
import { useT } from '../../../i18n/index.tsx';

export function ViewReviewNotice({ review }: { review: ReviewRequested }) {
  const t = useT();
  const workspace = useWorkspace();
  const id = review.reviewRequest.id;
  return (
    <div className="notice notice-info view-review" role="status">
      <strong>{t('views.review.opened')}</strong> {t('views.review.detail')}{' '}
      <Link href={workspace.href(`/reviews/${encodeURIComponent(id)}`)}>
        {t('views.review.open', { id })}
      </Link>
    </div>
  );
}
