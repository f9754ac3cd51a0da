/** Pages outside a project: your account and, for account administrators, the users. */
import { lazyScreen } from '../lazy-screen.ts';
import type { Screen } from '../screen.ts';

export const accountScreens: Screen[] = [
  { path: '/account', component: lazyScreen(() => import('./AccountScreen.tsx'), 'AccountScreen') },
  { path: '/admin/users', component: lazyScreen(() => import('./UsersScreen.tsx'), 'UsersScreen') },
];
