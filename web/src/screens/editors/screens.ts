/** The editor screens: data sources, actions (with copy), variables and secrets. */
import { lazyScreen } from '../lazy-screen.ts';
import type { Screen } from '../screen.ts';

const base = '/p/:projectId/e/:environmentId';

export const editorScreens: Screen[] = [
  {
    path: `${base}/editor/actions`,
    nav: { labelKey: 'nav.editors.actions', order: 50 },
    component: lazyScreen(() => import('./ActionEditorListScreen.tsx'), 'ActionEditorListScreen'),
  },
  {
    path: `${base}/editor/actions/new`,
    component: lazyScreen(() => import('./ActionEditorScreen.tsx'), 'ActionEditorScreen'),
  },
  {
    path: `${base}/editor/actions/:actionId`,
    component: lazyScreen(() => import('./ActionEditorScreen.tsx'), 'ActionEditorScreen'),
  },
  {
    path: `${base}/data-sources`,
    nav: { labelKey: 'nav.editors.dataSources', order: 51 },
    component: lazyScreen(() => import('./DataSourcesScreen.tsx'), 'DataSourcesScreen'),
  },
  {
    path: `${base}/variables`,
    nav: { labelKey: 'nav.editors.variables', order: 52 },
    component: lazyScreen(() => import('./VariablesScreen.tsx'), 'VariablesScreen'),
  },
  // Project settings: tokens of the protoset upload API (spec 4.3).
  {
    path: `${base}/settings/upload-tokens`,
    nav: { labelKey: 'nav.editors.uploadTokens', order: 53 },
    component: lazyScreen(() => import('./UploadTokensScreen.tsx'), 'UploadTokensScreen'),
  },
  // Project settings: bridges data sources may go through (docs/bridge.md).
  {
    path: `${base}/settings/bridges`,
    nav: { labelKey: 'nav.editors.bridges', order: 54 },
    component: lazyScreen(() => import('./BridgesScreen.tsx'), 'BridgesScreen'),
  },
  // Project settings: hosts views may load media from and open without asking (docs/views.md).
  {
    path: `${base}/settings/allowed-hosts`,
    nav: { labelKey: 'nav.editors.allowedHosts', order: 55 },
    component: lazyScreen(() => import('./AllowedHostsScreen.tsx'), 'AllowedHostsScreen'),
  },
];
