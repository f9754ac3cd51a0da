/**
 * Screens outside the core (editors, governance, scheduling, identity). Each area exports its
 * `Screen[]` from its folder; concatenate them here.
 */
import type { Screen } from './registry.ts';

export const extraScreens: Screen[] = [];
