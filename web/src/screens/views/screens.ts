/** The views screens: the list (navigation next to actions), a view, the builder and code editor. */
import { lazyScreen } from '../lazy-screen.ts';
import type { Screen } from '../screen.ts';
import './views.css';

const base = '/p/:projectId/e/:environmentId';
const builder = lazyScreen(() => import('./builder/ViewBuilderScreen.tsx'), 'ViewBuilderScreen');

export const viewScreens: Screen[] = [
  {
    path: `${base}/views`,
    nav: { labelKey: 'nav.views', order: 11 },
    component: lazyScreen(() => import('./ViewListScreen.tsx'), 'ViewListScreen'),
  },
  { path: `${base}/views/:viewId`, component: lazyScreen(() => import('./ViewScreen.tsx'), 'ViewScreen') },
  { path: `${base}/views/:viewId/edit`, component: builder },
  {
    path: `${base}/views/:viewId/versions`,
    component: lazyScreen(() => import('./versions/ViewVersionsScreen.tsx'), 'ViewVersionsScreen'),
  },
  { path: `${base}/views-new/:kind`, component: builder },
];
