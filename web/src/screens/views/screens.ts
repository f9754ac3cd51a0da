/** The views screens: the list (navigation next to actions), a view, the builder and code editor. */
import type { Screen } from '../registry.ts';
import { ViewBuilderScreen } from './builder/ViewBuilderScreen.tsx';
import { ViewListScreen } from './ViewListScreen.tsx';
import { ViewScreen } from './ViewScreen.tsx';
import './views.css';

const base = '/p/:projectId/e/:environmentId';

export const viewScreens: Screen[] = [
  { path: `${base}/views`, nav: { labelKey: 'nav.views', order: 11 }, component: ViewListScreen },
  { path: `${base}/views/:viewId`, component: ViewScreen },
  { path: `${base}/views/:viewId/edit`, component: ViewBuilderScreen },
  { path: `${base}/views-new/:kind`, component: ViewBuilderScreen },
];
