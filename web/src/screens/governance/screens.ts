/** The governance screens: reviews, versions of an action, action groups, environments, audit log. */
import { lazyScreen } from '../lazy-screen.ts';
import type { Screen } from '../screen.ts';

const base = '/p/:projectId/e/:environmentId';

export const governanceScreens: Screen[] = [
  {
    path: `${base}/reviews`,
    nav: { labelKey: 'nav.governance.reviews', order: 20 },
    component: lazyScreen(() => import('./ReviewListScreen.tsx'), 'ReviewListScreen'),
  },
  {
    path: `${base}/reviews/:reviewId`,
    component: lazyScreen(() => import('./ReviewDetailScreen.tsx'), 'ReviewDetailScreen'),
  },
  {
    path: `${base}/actions/:actionId/versions`,
    component: lazyScreen(() => import('./VersionsScreen.tsx'), 'VersionsScreen'),
  },
  {
    path: `${base}/action-groups`,
    nav: { labelKey: 'nav.governance.actionGroups', order: 21 },
    component: lazyScreen(() => import('./ActionGroupsScreen.tsx'), 'ActionGroupsScreen'),
  },
  {
    path: `${base}/action-groups/:groupId`,
    component: lazyScreen(() => import('./ActionGroupRunScreen.tsx'), 'ActionGroupRunScreen'),
  },
  // Project settings next to upload tokens (53) and bridges (54): which environments are protected.
  {
    path: `${base}/settings/environments`,
    nav: { labelKey: 'nav.settings.environments', order: 55 },
    component: lazyScreen(() => import('./EnvironmentsScreen.tsx'), 'EnvironmentsScreen'),
  },
  {
    path: `${base}/audit-log`,
    nav: { labelKey: 'nav.governance.auditLog', order: 70 },
    component: lazyScreen(() => import('./AuditLogScreen.tsx'), 'AuditLogScreen'),
  },
];
