/** The governance screens: reviews, versions of an action, action groups, audit log. */
import type { Screen } from '../registry.ts';
import { ActionGroupRunScreen } from './ActionGroupRunScreen.tsx';
import { ActionGroupsScreen } from './ActionGroupsScreen.tsx';
import { AuditLogScreen } from './AuditLogScreen.tsx';
import { ReviewDetailScreen } from './ReviewDetailScreen.tsx';
import { ReviewListScreen } from './ReviewListScreen.tsx';
import { VersionsScreen } from './VersionsScreen.tsx';

const base = '/p/:projectId/e/:environmentId';

export const governanceScreens: Screen[] = [
  {
    path: `${base}/reviews`,
    nav: { labelKey: 'nav.governance.reviews', order: 20 },
    component: ReviewListScreen,
  },
  { path: `${base}/reviews/:reviewId`, component: ReviewDetailScreen },
  { path: `${base}/actions/:actionId/versions`, component: VersionsScreen },
  {
    path: `${base}/action-groups`,
    nav: { labelKey: 'nav.governance.actionGroups', order: 21 },
    component: ActionGroupsScreen,
  },
  { path: `${base}/action-groups/:groupId`, component: ActionGroupRunScreen },
  {
    path: `${base}/audit-log`,
    nav: { labelKey: 'nav.governance.auditLog', order: 70 },
    component: AuditLogScreen,
  },
];
