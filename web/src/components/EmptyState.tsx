/** What a screen shows when there is nothing yet, with the next step to take. */
import type { ReactNode } from 'react';

export function EmptyState({
  title,
  children,
  action,
  heading,
}: {
  title: ReactNode;
  /** The title as the page's own heading (a page that shows nothing else). */
  heading?: 'h1' | 'h2';
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="empty-state">
      {heading === 'h1' ? (
        <h1 className="empty-state-title">{title}</h1>
      ) : heading === 'h2' ? (
        <h2 className="empty-state-title">{title}</h2>
      ) : (
        <p className="empty-state-title">{title}</p>
      )}
      {children ? <div className="empty-state-body">{children}</div> : null}
      {action ? <div className="empty-state-action">{action}</div> : null}
    </div>
  );
}
