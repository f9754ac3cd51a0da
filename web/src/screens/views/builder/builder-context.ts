/** What the property editors choose from: the project's actions, its views, the draft's queries. */
import { createContext, useContext } from 'react';

export interface BuilderChoices {
  actions: { id: string; name: string }[];
  views: { id: string; name: string }[];
  queries: string[];
  /** The draft's modal and drawer components (for open/close events). */
  modals?: string[];
  /** The project's action groups (a view is listed under one). */
  groups?: { id: string; name: string }[];
}

export const BuilderChoicesContext = createContext<BuilderChoices>({ actions: [], views: [], queries: [] });
export const useBuilderChoices = () => useContext(BuilderChoicesContext);
