/**
 * Dictionaries of the screens outside the core (editors, governance, scheduling, identity).
 * Each area keeps `<area>.en.ts` and `<area>.ja.ts` next to this file; import both here and
 * spread them into `en` and `ja`. Keys are prefixed with the area (`editors.dataSources.title`).
 */

import { accountsEn } from './accounts.en.ts';
import { accountsJa } from './accounts.ja.ts';
import { agentsEn } from './agents.en.ts';
import { agentsJa } from './agents.ja.ts';
import { editorsEn } from './editors.en.ts';
import { editorsJa } from './editors.ja.ts';
import { environmentsEn } from './environments.en.ts';
import { environmentsJa } from './environments.ja.ts';
import { governanceEn } from './governance.en.ts';
import { governanceJa } from './governance.ja.ts';
import { hardeningEn } from './hardening.en.ts';
import { hardeningJa } from './hardening.ja.ts';
import { identityEn } from './identity.en.ts';
import { identityJa } from './identity.ja.ts';
import { mcpOAuthEn } from './mcp-oauth.en.ts';
import { mcpOAuthJa } from './mcp-oauth.ja.ts';
import { notificationsEn } from './notifications.en.ts';
import { notificationsJa } from './notifications.ja.ts';
import { objectsEn } from './objects.en.ts';
import { objectsJa } from './objects.ja.ts';
import { schedulingEn } from './scheduling.en.ts';
import { schedulingJa } from './scheduling.ja.ts';
import { viewsEn } from './views.en.ts';
import { viewsJa } from './views.ja.ts';

export const extraMessages: { en: Record<string, string>; ja: Record<string, string> } = {
  en: {
    ...schedulingEn,
    ...governanceEn,
    ...editorsEn,
    ...identityEn,
    ...notificationsEn,
    ...accountsEn,
    ...hardeningEn,
    ...objectsEn,
    ...viewsEn,
    ...environmentsEn,
    ...mcpOAuthEn,
    ...agentsEn,
  },
  ja: {
    ...schedulingJa,
    ...governanceJa,
    ...editorsJa,
    ...identityJa,
    ...notificationsJa,
    ...accountsJa,
    ...hardeningJa,
    ...objectsJa,
    ...viewsJa,
    ...environmentsJa,
    ...mcpOAuthJa,
    ...agentsJa,
  },
};
