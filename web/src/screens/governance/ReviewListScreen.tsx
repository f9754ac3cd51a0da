/** The project's review requests, newest first, filtered by status. */
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { Link } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import { EmptyState, ErrorBanner, ListTable, useAsync } from '../../components/index.ts';
import { formatTime } from '../../i18n/format-time.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { governancePaths, type ReviewRequest, reviewStatuses } from './api.ts';

export function ReviewListScreen() {
  const t = useT();
  const { language } = useLanguage();
  const workspace = useWorkspace();
  const [status, setStatus] = useState('pending');
  const reviews = useAsync(
    () =>
      api.get<{ data: ReviewRequest[] }>(
        `${governancePaths.reviews(workspace.projectId)}${status ? `?status=${encodeURIComponent(status)}` : ''}`,
      ),
    [workspace.projectId, status],
  );
  return (
    <section className="screen" aria-labelledby="reviews-title">
      <div className="screen-header">
        <h1 id="reviews-title">{t('governance.reviews.title')}</h1>
        <label className="inline-field">
          <span>{t('governance.reviews.status')}</span>
          <select value={status} onChange={(event) => setStatus(event.target.value)}>
            <option value="">{t('governance.reviews.anyStatus')}</option>
            {reviewStatuses.map((s) => (
              <option key={s} value={s}>
                {t(`governance.reviewStatus.${s}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorBanner error={reviews.error} />
      <ListTable
        label={t('governance.reviews.title')}
        columns={[
          t('governance.reviews.action'),
          t('governance.reviews.status'),
          t('governance.reviews.requestedBy'),
          t('governance.reviews.requestedAt'),
          t('governance.reviews.environment'),
          t('governance.reviews.comment'),
        ]}
        items={reviews.data?.data}
        empty={<EmptyState title={t('governance.reviews.none')} />}
        row={(review) => (
          <tr key={review.id}>
            <td>
              <Link href={workspace.href(`/reviews/${encodeURIComponent(review.id)}`)}>
                {review.actionId} v{review.actionVersion}
              </Link>
            </td>
            <td>
              <span className={`run-status run-${review.status}`}>
                {t(`governance.reviewStatus.${review.status}`)}
              </span>
            </td>
            <td>{review.requestedBy.name || review.requestedBy.email}</td>
            <td>{formatTime(review.requestedAt, language)}</td>
            <td>{review.environmentId}</td>
            <td>{review.comment ?? ''}</td>
          </tr>
        )}
      />
    </section>
  );
}
