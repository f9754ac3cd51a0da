/** The identity screens: members, roles and user groups; service accounts and trust policies. */
import { lazyScreen } from '../lazy-screen.ts';
import type { Screen } from '../screen.ts';

const base = '/p/:projectId/e/:environmentId';

export const identityScreens: Screen[] = [
  {
    path: `${base}/members`,
    nav: { labelKey: 'nav.identity.members', order: 60 },
    component: lazyScreen(() => import('./MembersScreen.tsx'), 'MembersScreen'),
  },
  {
    path: `${base}/service-accounts`,
    nav: { labelKey: 'nav.identity.serviceAccounts', order: 61 },
    component: lazyScreen(() => import('./ServiceAccountsScreen.tsx'), 'ServiceAccountsScreen'),
  },
];
