/** The consent screen of an MCP client signing in with OAuth (docs/agents.md): outside any project page. */
import { lazyScreen } from '../lazy-screen.ts';
import type { Screen } from '../screen.ts';

export const mcpOAuthScreens: Screen[] = [
  {
    path: '/connect/:requestId',
    component: lazyScreen(() => import('./ConsentScreen.tsx'), 'ConsentScreen'),
  },
];
