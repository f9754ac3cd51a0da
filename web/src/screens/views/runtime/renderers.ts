/**
 * The renderer of each component type, handed down through context: layout and modal components
 * draw their children with `ComponentView`, which looks renderers up here, so the registry of
 * renderers and the components it lists do not import each other.
 */
import { type ComponentType, createContext, useContext } from 'react';
import type { ViewComponent } from '../view-api.ts';

export type Renderers = {
  [T in ViewComponent['type']]: ComponentType<{ component: Extract<ViewComponent, { type: T }> }>;
};

export const RenderersContext = createContext<Renderers | undefined>(undefined);

export function useRenderers(): Renderers {
  const renderers = useContext(RenderersContext);
  if (!renderers) throw new Error('A view component is drawn outside ViewRenderer.');
  return renderers;
}
