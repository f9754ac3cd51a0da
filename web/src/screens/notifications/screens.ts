/** Project settings → notifications: targets, rules, the delivery log and a test send. */
import { lazyScreen } from '../lazy-screen.ts';
import type { Screen } from '../screen.ts';

export const notificationScreens: Screen[] = [
  {
    path: '/p/:projectId/e/:environmentId/notifications',
    nav: { labelKey: 'nav.notifications', order: 70 },
    component: lazyScreen(() => import('./NotificationsScreen.tsx'), 'NotificationsScreen'),
  },
];
