/** Pages outside a project: your account and, for account administrators, the users. */
import type { Screen } from '../registry.ts';
import { AccountScreen } from './AccountScreen.tsx';
import { UsersScreen } from './UsersScreen.tsx';

export const accountScreens: Screen[] = [
  { path: '/account', component: AccountScreen },
  { path: '/admin/users', component: UsersScreen },
];
