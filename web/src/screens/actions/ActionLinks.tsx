/**
 * From the execution screen to the other screens about the same action: its versions per
 * environment, a batch of many argument sets, and its editor. The paths are the ones the
 * governance, scheduling and editor areas register (`screens/*\/screens.ts`).
 */
import { Link } from '../../app/router.tsx';
import { useWorkspace } from '../../app/workspace.tsx';
import { useT } from '../../i18n/index.tsx';

export function ActionLinks({ actionId }: { actionId: string }) {
  const t = useT();
  const workspace = useWorkspace();
  const id = encodeURIComponent(actionId);
  return (
    <nav className="action-links" aria-label={t('action.links')}>
      <Link href={workspace.href(`/actions/${id}/versions`)}>{t('action.versionsLink')}</Link>
      <Link href={workspace.href(`/actions/${id}/batch`)}>{t('action.batchLink')}</Link>
      <Link href={workspace.href(`/editor/actions/${id}`)}>{t('action.editLink')}</Link>
    </nav>
  );
}
