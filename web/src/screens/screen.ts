/** One screen of the console: where it answers, whether the side navigation lists it, what it shows. */
import type { ComponentType } from 'react';

export interface Screen {
  path: string /* '/p/:projectId/e/:environmentId/…' */;
  nav?: { labelKey: string; order: number };
  component: ComponentType<{ params: Record<string, string> }>;
}
