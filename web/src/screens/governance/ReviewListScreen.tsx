/** The project's review requests, newest first, filtered by status. */
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { Link } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import { EmptyState, ErrorBanner, useAsync } from '../../components/index.ts';
import { useLanguage, useT } from '../../i18n/index.tsx';
import { formatTime } from '../scheduling/api.ts';
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
      {reviews.data && reviews.data.data.length === 0 ? (
        <EmptyState title={t('governance.reviews.none')} />
      ) : null}
      {reviews.data && reviews.data.data.length > 0 ? (
        <table className="plain-table">
          <caption className="visually-hidden">{t('governance.reviews.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('governance.reviews.action')}</th>
              <th scope="col">{t('governance.reviews.status')}</th>
              <th scope="col">{t('governance.reviews.requestedBy')}</th>
              <th scope="col">{t('governance.reviews.requestedAt')}</th>
              <th scope="col">{t('governance.reviews.environment')}</th>
              <th scope="col">{t('governance.reviews.comment')}</th>
            </tr>
          </thead>
          <tbody>
            {reviews.data.data.map((review) => (
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
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
