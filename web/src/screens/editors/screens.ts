/** The editor screens: data sources, actions (with copy), variables and secrets. */
import type { Screen } from '../registry.ts';
import { ActionEditorListScreen } from './ActionEditorListScreen.tsx';
import { ActionEditorScreen } from './ActionEditorScreen.tsx';
import { DataSourcesScreen } from './DataSourcesScreen.tsx';
import { UploadTokensScreen } from './UploadTokensScreen.tsx';
import { VariablesScreen } from './VariablesScreen.tsx';

const base = '/p/:projectId/e/:environmentId';

export const editorScreens: Screen[] = [
  {
    path: `${base}/editor/actions`,
    nav: { labelKey: 'nav.editors.actions', order: 50 },
    component: ActionEditorListScreen,
  },
  { path: `${base}/editor/actions/new`, component: ActionEditorScreen },
  { path: `${base}/editor/actions/:actionId`, component: ActionEditorScreen },
  {
    path: `${base}/data-sources`,
    nav: { labelKey: 'nav.editors.dataSources', order: 51 },
    component: DataSourcesScreen,
  },
  {
    path: `${base}/variables`,
    nav: { labelKey: 'nav.editors.variables', order: 52 },
    component: VariablesScreen,
  },
  // Project settings: tokens of the protoset upload API (spec 4.3).
  {
    path: `${base}/settings/upload-tokens`,
    nav: { labelKey: 'nav.editors.uploadTokens', order: 53 },
    component: UploadTokensScreen,
  },
];
