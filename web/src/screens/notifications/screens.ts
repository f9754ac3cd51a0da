/** Project settings → notifications: targets, rules, the delivery log and a test send. */
import type { Screen } from '../registry.ts';
import { NotificationsScreen } from './NotificationsScreen.tsx';

export const notificationScreens: Screen[] = [
  {
    path: '/p/:projectId/e/:environmentId/notifications',
    nav: { labelKey: 'nav.notifications', order: 70 },
    component: NotificationsScreen,
  },
];
