/**
 * Screens outside the core (editors, governance, scheduling, identity). Each area exports its
 * `Screen[]` from its folder; concatenate them here.
 */

import { accountScreens } from './accounts/screens.ts';
import { agentScreens } from './agents/screens.ts';
import { editorScreens } from './editors/screens.ts';
import { governanceScreens } from './governance/screens.ts';
import { identityScreens } from './identity/screens.ts';
import { mcpOAuthScreens } from './mcp-oauth/screens.ts';
import { notificationScreens } from './notifications/screens.ts';
import { schedulingScreens } from './scheduling/screens.ts';
import type { Screen } from './screen.ts';
import { viewScreens } from './views/screens.ts';

export const extraScreens: Screen[] = [
  ...governanceScreens,
  ...schedulingScreens,
  ...editorScreens,
  ...identityScreens,
  ...accountScreens,
  ...notificationScreens,
  ...viewScreens,
  ...mcpOAuthScreens,
  ...agentScreens,
];
