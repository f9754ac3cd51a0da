/** The identity screens: members, roles and user groups; service accounts and trust policies. */
import type { Screen } from '../registry.ts';
import { MembersScreen } from './MembersScreen.tsx';
import { ServiceAccountsScreen } from './ServiceAccountsScreen.tsx';

const base = '/p/:projectId/e/:environmentId';

export const identityScreens: Screen[] = [
  { path: `${base}/members`, nav: { labelKey: 'nav.identity.members', order: 60 }, component: MembersScreen },
  {
    path: `${base}/service-accounts`,
    nav: { labelKey: 'nav.identity.serviceAccounts', order: 61 },
    component: ServiceAccountsScreen,
  },
];
