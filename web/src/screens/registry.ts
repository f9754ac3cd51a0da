/**
 * Every screen of the console. A screen's `path` is a pattern under a project and environment
 * (`/p/:projectId/e/:environmentId/…`); the shell finds the first screen whose pattern matches and
 * passes the matched `params`. `nav` puts it in the side navigation (ordered by `order`, labelled
 * by the i18n key `labelKey`). Core screens use orders 10–19; other areas pick their own range.
 */
import { extraScreens } from './extra.ts';
import { lazyScreen } from './lazy-screen.ts';
import type { Screen } from './screen.ts';

export const coreScreens: Screen[] = [
  {
    path: '/p/:projectId/e/:environmentId/actions',
    nav: { labelKey: 'nav.actions', order: 10 },
    component: lazyScreen(() => import('./actions/ActionListScreen.tsx'), 'ActionListScreen'),
  },
  {
    path: '/p/:projectId/e/:environmentId/actions/:actionId',
    component: lazyScreen(() => import('./actions/ActionScreen.tsx'), 'ActionScreen'),
  },
];

export const screens: Screen[] = [...coreScreens, ...extraScreens];
