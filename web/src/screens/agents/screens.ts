/** The AI agents (MCP) screens: the project's agent settings. */
import './agents.css';
import { lazyScreen } from '../lazy-screen.ts';
import type { Screen } from '../screen.ts';

export const agentScreens: Screen[] = [
  // Project settings next to environments (55): what agents see and whether they may change data.
  {
    path: '/p/:projectId/e/:environmentId/settings/agents',
    nav: { labelKey: 'nav.settings.agents', order: 56 },
    component: lazyScreen(() => import('./AgentSettingsScreen.tsx'), 'AgentSettingsScreen'),
  },
];
